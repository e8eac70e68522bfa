public import Foundation

/// Where a URL's requests go: its scheme, host and port (RFC 6454), such as `https://uploads.example.com`.
///
/// A client sends to its base URL's origin, and to the origins it lists in
/// ``APIClient/Configuration/allowedOrigins``: absolute URLs (``RoutePath/url(_:)``) and next-page links
/// elsewhere are refused before anything is sent.
/// ```swift
/// let client = APIClient(baseURL: apiURL) { $0.allowedOrigins = ["https://uploads.example.com"] }
/// ```
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lower-cased.
    public let scheme: String
    /// The host, lower-cased; an IPv6 address keeps its brackets.
    public let host: String
    /// The port, explicit or the scheme's default (80, 443).
    public let port: Int

    /// The origin of an absolute `http` or `https` URL with a host and no user or password; `nil` for any
    /// other URL.
    public init?(_ url: URL) {
        guard case .success(let origin) = Self.validate(url) else { return nil }
        self = origin
    }

    private init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// `https://host`, with `:port` when it is not the scheme's default.
    public var description: String {
        guard !scheme.isEmpty else { return "(not an origin: \(host))" }
        return port == Self.defaultPort(of: scheme) ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }

    /// `host` or `host:port`, as a request's authority.
    var authority: String { port == Self.defaultPort(of: scheme) ? host : "\(host):\(port)" }

    /// The origin of `url`, or why `url` can't have requests sent to it (the end of a sentence about it).
    static func validate(_ url: URL) -> Result<Origin, Invalid> {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return .failure(Invalid("is not a valid URL"))
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .failure(Invalid("must start with http:// or https://"))
        }
        guard let host = components.percentEncodedHost, !host.isEmpty else { return .failure(Invalid("has no host")) }
        guard components.user == nil, components.password == nil else {
            return .failure(Invalid("must not carry credentials; use .basicAuth(username:password:)"))
        }
        let port = components.port ?? defaultPort(of: scheme)
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return .success(Origin(scheme: scheme, host: bracketed.lowercased(), port: port))
    }

    /// Why a URL is no place to send a request.
    struct Invalid: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func defaultPort(of scheme: String) -> Int { scheme == "https" ? 443 : 80 }
}

extension Origin: ExpressibleByStringLiteral {
    /// An origin from a literal such as `"https://uploads.example.com"` (or `Origin("https://…")`). A
    /// literal that is not an absolute `http(s)` URL makes an origin no URL has (its description is
    /// `(not an origin: …)`): listed in ``APIClient/Configuration/allowedOrigins``, it allows nothing.
    public init(stringLiteral value: String) {
        self = URL(string: value).flatMap(Origin.init) ?? Origin(scheme: "", host: value, port: 0)
    }
}
