public import Foundation
public import HTTPTypes
import Synchronization

/// Cookies kept across requests, the same on every transport: opt in with
/// ``APIClient/Configuration/cookieJar``. The client stores every `Set-Cookie` of every response (redirects
/// and retried attempts included) and sends the matching cookies in one `Cookie` field on every request,
/// after middleware, so middleware and logs never see them. Courier's own transports have URLSession's cookie
/// handling turned off, so this jar is the only cookie behaviour.
///
/// It follows RFC 6265bis: host-only cookies (no `Domain`) go only to their host, `Domain` cookies to the
/// domain and its subdomains (never to an IP address other than their own), paths match by segment,
/// `Secure` cookies are set and sent only over HTTPS (or to a loopback host), `__Secure-` and `__Host-`
/// prefixes are enforced, `Max-Age` outranks `Expires` (dates parsed leniently), and both are capped at 400
/// days. Courier ships no public-suffix list: a `Domain` of a single label (`com`, `localhost`) is accepted
/// only as the request's own host, and `isPublicSuffix` names more (`co.uk`, `github.io`) where tenants of
/// one domain must not share cookies. At most 50 cookies per domain and 3000 in all; the oldest go first.
/// A request's own `Cookie` field wins over the jar's cookie of the same name.
///
/// The jar sees each response as the transport hands it over: a transport that follows redirects itself
/// (swift-openapi-urlsession's `URLSessionTransport`) hides the hops and their cookies, so use Courier's
/// transports with a jar. Control characters in a `Set-Cookie` value never reach it: swift-http-types turns
/// them into spaces first.
///
/// ```swift
/// let jar = CookieJar()
/// let client = APIClient(baseURL: url) { $0.cookieJar = jar }
/// ```
/// Cookie values are secrets: errors, logs and cURL descriptions redact them, and ``Cookie/description``
/// leaves them out.
public final class CookieJar: Sendable {
    private struct State {
        var cookies: [Cookie] = []
        /// Counts changes, so that a slower save of an older state never overwrites a newer one.
        var version: UInt64 = 0
    }

    private let state: Mutex<State>
    private let persistence: (any CookiePersistence)?
    /// The version last saved; saves run one at a time under this lock.
    private let saved = Mutex<UInt64>(0)
    private let now: @Sendable () -> Date
    private let isPublicSuffix: @Sendable (String) -> Bool

    /// An empty jar. `now` is the clock expiry is judged by; `isPublicSuffix` names domains no cookie may be
    /// set for (besides single labels, always refused unless they are the request's own host).
    public init(
        now: @escaping @Sendable () -> Date = { Date() },
        isPublicSuffix: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.persistence = nil
        self.now = now
        self.isPublicSuffix = isPublicSuffix
        state = Mutex(State())
    }

    /// A jar holding what `persistence` saved, told of every change afterwards. Throws what loading throws, so
    /// that a failed load never leads to the saved cookies being overwritten.
    public init(
        persistence: any CookiePersistence, now: @escaping @Sendable () -> Date = { Date() },
        isPublicSuffix: @escaping @Sendable (String) -> Bool = { _ in false }
    ) throws {
        self.persistence = persistence
        self.now = now
        self.isPublicSuffix = isPublicSuffix
        let time = now()
        state = Mutex(State(cookies: try persistence.load().filter { !$0.hasExpired(at: time) }))
    }

    /// Every cookie the jar holds and that has not expired.
    public var cookies: [Cookie] {
        let time = now()
        return state.withLock { $0.cookies.filter { !$0.hasExpired(at: time) } }
    }

    /// The cookies a request to `url` carries, in the order they are sent (longer paths first).
    public func cookies(for url: URL) -> [Cookie] {
        guard let target = CookieTarget(url) else { return [] }
        return matching(target)
    }

    /// The `Cookie` field value for a request to `url`, or `nil` when no cookie matches.
    public func cookieHeader(for url: URL) -> String? {
        let cookies = cookies(for: url)
        return cookies.isEmpty ? nil : cookies.map(\.pair).joined(separator: "; ")
    }

    /// Stores the cookies of every `Set-Cookie` field of a response from `url`; returns how many were stored
    /// (replacements and deletions included).
    @discardableResult
    public func store(_ fields: HTTPFields, from url: URL) -> Int {
        let values = fields[values: .setCookie]
        guard !values.isEmpty, let target = CookieTarget(url) else { return 0 }
        return store(values, target)
    }

    /// Removes every cookie.
    public func removeAll() {
        let version = state.withLock { state -> UInt64 in
            state.cookies = []
            state.version += 1
            return state.version
        }
        save([], version: version)
    }

    /// Saves `cookies` unless a newer state was saved already.
    private func save(_ cookies: [Cookie], version: UInt64) {
        guard let persistence else { return }
        saved.withLock { last in
            guard version > last else { return }
            try? persistence.save(cookies)
            last = version
        }
    }

    // MARK: - The client's side

    /// `head` with the jar's cookies for `url` added to its `Cookie` field (after any the request set itself).
    func addCookies(to head: inout HTTPRequest, url: String) {
        guard let target = CookieTarget(text: url) else { return }
        let cookies = matching(target)
        let existing = head.headerFields[values: .cookie]
        // A cookie the request sets itself wins over the jar's of the same name.
        let ownNames = Set(
            existing.flatMap { $0.split(separator: ";") }.map {
                $0.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces)
            })
        let added = cookies.filter { !ownNames.contains($0.name) }
        guard !added.isEmpty else { return }
        let pairs = added.map(\.pair).joined(separator: "; ")
        head.headerFields[fields: .cookie] = [
            HTTPField(name: .cookie, value: (existing + [pairs]).joined(separator: "; "))
        ]
    }

    /// Stores the `Set-Cookie` fields of `response` to a request to `url`.
    func store(_ response: HTTPResponse, url: String) {
        let values = response.headerFields[values: .setCookie]
        guard !values.isEmpty, let target = CookieTarget(text: url) else { return }
        store(values, target)
    }

    // MARK: - RFC 6265bis

    private func matching(_ target: CookieTarget) -> [Cookie] {
        let time = now()
        let found = state.withLock { state in
            state.cookies.filter { cookie in
                !cookie.hasExpired(at: time) && (!cookie.isSecure || target.isSecure)
                    && (cookie.isHostOnly ? cookie.domain == target.host : target.domainMatches(cookie.domain))
                    && target.pathMatches(cookie.path)
            }
        }
        // Longer paths first; equal paths in the order they were first stored (a stable sort keeps it).
        return found.enumerated().sorted { left, right in
            if left.element.path.utf8.count != right.element.path.utf8.count {
                return left.element.path.utf8.count > right.element.path.utf8.count
            }
            if left.element.created != right.element.created { return left.element.created < right.element.created }
            return left.offset < right.offset
        }.map(\.element)
    }

    @discardableResult
    private func store(_ values: [String], _ target: CookieTarget) -> Int {
        let time = now()
        let parsed = values.compactMap(SetCookie.init).compactMap { cookie(from: $0, target: target, now: time) }
        guard !parsed.isEmpty else { return 0 }
        var stored = 0
        let (snapshot, version) = state.withLock { state -> ([Cookie], UInt64) in
            for cookie in parsed where insert(cookie, into: &state.cookies, target: target, now: time) { stored += 1 }
            state.cookies.removeAll { $0.hasExpired(at: time) }
            Self.evict(&state.cookies)
            if stored > 0 { state.version += 1 }
            return (state.cookies, state.version)
        }
        if stored > 0 { save(snapshot, version: version) }
        return stored
    }

    /// The cookie `parsed` makes for a response from `target` (§5.7 steps up to the store), or `nil` when the
    /// rules say to ignore it.
    private func cookie(from parsed: SetCookie, target: CookieTarget, now: Date) -> Cookie? {
        var expires: Date?
        let cap = now.addingTimeInterval(Self.maximumLifetime)
        if let maxAge = parsed.maxAge {
            expires =
                maxAge <= 0 ? Date.distantPast : now.addingTimeInterval(min(TimeInterval(maxAge), Self.maximumLifetime))
        } else if let date = parsed.expires {
            expires = min(date, cap)
        }
        var domain = target.host
        var isHostOnly = true
        if let attribute = parsed.domain, !attribute.isEmpty {
            if attribute == target.host {
                isHostOnly = !attribute.contains(".") || target.isIPAddress || isPublicSuffix(attribute)
            } else {
                // A single label, or a listed public suffix, is refused; an IP address matches only itself.
                guard attribute.contains("."), !isPublicSuffix(attribute), target.domainMatches(attribute) else {
                    return nil
                }
                isHostOnly = false
            }
            domain = attribute
        }
        if parsed.isSecure && !target.isSecure { return nil }
        let lowercasedName = parsed.name.lowercased()
        if lowercasedName.hasPrefix("__secure-") && !parsed.isSecure { return nil }
        if lowercasedName.hasPrefix("__host-") && (!parsed.isSecure || parsed.domain != nil || parsed.path != "/") {
            return nil
        }
        return Cookie(
            name: parsed.name, value: parsed.value, domain: domain, isHostOnly: isHostOnly,
            path: parsed.path ?? target.defaultPath, isSecure: parsed.isSecure, isHTTPOnly: parsed.isHTTPOnly,
            sameSite: parsed.sameSite, expires: expires, created: now)
    }

    /// Stores `cookie`, replacing one with the same name, domain, host-only flag and path (keeping its
    /// creation time); refuses an insecure cookie that would shadow a secure one. Returns whether it changed
    /// the store.
    private func insert(_ cookie: Cookie, into cookies: inout [Cookie], target: CookieTarget, now: Date) -> Bool {
        var cookie = cookie
        if !cookie.isSecure && !target.isSecure {
            let shadows = cookies.contains { old in
                old.isSecure && old.name == cookie.name
                    && (CookieTarget.domain(old.domain, matches: cookie.domain)
                        || CookieTarget.domain(cookie.domain, matches: old.domain))
                    && CookieTarget.path(cookie.path, matches: old.path)
            }
            if shadows { return false }
        }
        if let index = cookies.firstIndex(where: {
            $0.name == cookie.name && $0.domain == cookie.domain && $0.isHostOnly == cookie.isHostOnly
                && $0.path == cookie.path
        }) {
            cookie.created = cookies[index].created
            cookies.remove(at: index)
        }
        if cookie.hasExpired(at: now) { return true }  // it only deleted the old one
        cookies.append(cookie)
        return true
    }

    /// Drops the oldest cookies past 50 for one domain and 3000 in all.
    private static func evict(_ cookies: inout [Cookie]) {
        var perDomain: [String: Int] = [:]
        for cookie in cookies { perDomain[cookie.domain, default: 0] += 1 }
        for (domain, count) in perDomain where count > maximumPerDomain {
            var excess = count - maximumPerDomain
            cookies.removeAll { cookie in
                guard excess > 0, cookie.domain == domain else { return false }
                excess -= 1
                return true
            }
        }
        if cookies.count > maximumCount { cookies.removeFirst(cookies.count - maximumCount) }
    }

    /// RFC 6265bis caps `Max-Age` and `Expires` at 400 days from now.
    static let maximumLifetime: TimeInterval = 400 * 86_400
    static let maximumPerDomain = 50
    static let maximumCount = 3000
}

/// Where cookies are kept between runs: the jar loads them once and saves them all after each change.
/// Implement it over a file, the keychain or a database; values are secrets, so encrypt what you write.
public protocol CookiePersistence: Sendable {
    /// The cookies saved last.
    func load() throws -> [Cookie]
    /// Saves every cookie the jar holds.
    func save(_ cookies: [Cookie]) throws
}
