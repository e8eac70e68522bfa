public import Foundation

/// A cookie a ``CookieJar`` holds: what a server's `Set-Cookie` said, after the jar applied RFC 6265bis's
/// storage rules. Its ``value`` is a secret: ``description`` never shows it.
public struct Cookie: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The cookie's name.
    public var name: String
    /// The cookie's value.
    public var value: String
    /// The host (``isHostOnly``) or the domain it is sent to, lowercased, without a leading dot.
    public var domain: String
    /// Whether it goes only to exactly ``domain`` (no `Domain` attribute), not to its subdomains.
    public var isHostOnly: Bool
    /// The path it is sent under.
    public var path: String
    /// Whether it goes only over a secure connection (`Secure`).
    public var isSecure: Bool
    /// `HttpOnly`: kept as the server set it (an API client has no scripts to hide it from).
    public var isHTTPOnly: Bool
    /// `SameSite`, as the server set it; recorded, not enforced (an API client makes no cross-site requests).
    public var sameSite: SameSite
    /// When it expires; `nil` for a session cookie, which lasts as long as the jar.
    public var expires: Date?
    /// When it was first stored (a replacement keeps the first one's); cookies with equal paths are sent in
    /// this order.
    public var created: Date

    /// A cookie as a jar stores it.
    public init(
        name: String, value: String, domain: String, isHostOnly: Bool = true, path: String = "/",
        isSecure: Bool = false, isHTTPOnly: Bool = false, sameSite: SameSite = .default, expires: Date? = nil,
        created: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.expires = expires
        self.created = created
    }

    /// `SameSite`'s value.
    public enum SameSite: String, Sendable, Hashable, Codable {
        /// `SameSite=Strict`.
        case strict
        /// `SameSite=Lax`.
        case lax
        /// `SameSite=None`.
        case none
        /// No `SameSite`, or a value that is none of the three.
        case `default`
    }

    /// `name=<redacted>; Domain=…; Path=…` and its flags: everything but the value.
    public var description: String {
        var text = "\(name)=\(Redaction.placeholder); \(isHostOnly ? "Host" : "Domain")=\(domain); Path=\(path)"
        if let expires { text += "; Expires=\(expires)" }
        if isSecure { text += "; Secure" }
        if isHTTPOnly { text += "; HttpOnly" }
        if sameSite != .default { text += "; SameSite=\(sameSite.rawValue)" }
        return text
    }

    /// Whether it has expired at `now`.
    func hasExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// How it goes in a `Cookie` field.
    var pair: String { "\(name)=\(value)" }
}
