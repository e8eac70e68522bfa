import Foundation

/// The parts of a request URL the cookie rules look at: its host (lowercased), its path, and whether it is
/// secure (HTTPS or WSS, or a loopback host, which browsers also trust: `localhost`, `127.0.0.0/8`, `::1`;
/// not `*.localhost`, which a resolver may send elsewhere).
struct CookieTarget {
    let host: String
    let path: String
    let isSecure: Bool
    let isIPAddress: Bool

    init?(_ url: URL) {
        self.init(text: url.absoluteString)
    }

    /// Parses `scheme://[userinfo@]host[:port][/path][?query][#fragment]` by hand (the client's own URL text).
    init?(text: String) {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        guard !host.isEmpty else { return nil }
        self.host = host.lowercased()
        let rest = afterScheme[authorityEnd...]
        let pathEnd = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        path = rest[..<pathEnd].isEmpty ? "/" : String(rest[..<pathEnd])
        isIPAddress = Self.isIPAddress(self.host)
        isSecure =
            scheme == "https" || scheme == "wss" || self.host == "localhost" || self.host == "::1"
            || (isIPAddress && self.host.hasPrefix("127."))
    }

    /// The path a cookie without `Path` gets: the request path up to, not including, its last `/`
    /// (`/` when that leaves nothing).
    var defaultPath: String {
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// Whether this host domain-matches `domain`: the same, or a subdomain of it (never for an IP address).
    func domainMatches(_ domain: String) -> Bool {
        host == domain || (!isIPAddress && Self.domain(host, matches: domain))
    }

    /// Whether a cookie with `cookiePath` goes with this request's path.
    func pathMatches(_ cookiePath: String) -> Bool { Self.path(path, matches: cookiePath) }

    /// RFC 6265bis domain-match of two lowercased names (`host` is not checked for being an IP address).
    static func domain(_ host: String, matches domain: String) -> Bool {
        host == domain || (host.hasSuffix(domain) && host.dropLast(domain.count).hasSuffix("."))
    }

    /// RFC 6265bis path-match: the same, or `cookiePath` is a prefix ending at a `/` of `requestPath`.
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        guard requestPath.hasPrefix(cookiePath) else { return false }
        if requestPath.utf8.count == cookiePath.utf8.count || cookiePath.hasSuffix("/") { return true }
        return requestPath.utf8.dropFirst(cookiePath.utf8.count).first == UInt8(ascii: "/")
    }

    /// An IPv4 address in dotted-decimal form, or any IPv6 address (it has a colon).
    private static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }
}
