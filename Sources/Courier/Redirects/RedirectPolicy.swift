public import HTTPTypes

/// How a client follows redirects. Courier follows them itself, never the transport, so that the same rules
/// hold on every transport:
///
/// - `301`, `302`, `303`, `307` and `308` with a `Location` are followed, up to ``maxRedirects`` hops; more,
///   or a hop back to a URL already visited with the same method, ends in ``APIError/Kind/tooManyRedirects``.
/// - `303` (for any method but `HEAD`), and `301`/`302` after a `POST`, continue as a `GET` without a body;
///   `307` and `308` resend the method and body, which must be replayable (else
///   ``APIError/Kind/redirectRefused``).
/// - Only `http` and `https` targets are followed, and never from `https` to `http` unless
///   ``allowsInsecureDowngrade`` is set.
/// - A hop to another origin (scheme, host or port) carries no credential: `Authorization`,
///   `Proxy-Authorization`, `Cookie`, every header field ``Redaction`` names and every secret query item are
///   dropped, including those a middleware would add again.
///
/// Set it for a client with ``APIClient/Configuration/redirectPolicy`` and for one endpoint with
/// ``Route/redirectPolicy``; ``never`` hands the `3xx` itself to status validation.
/// ```swift
/// let client = APIClient(baseURL: url) { $0.redirectPolicy = .limit(3) }
/// let probe = APIRequest<Void>.get("/short/abc").redirectPolicy(.never)
/// ```
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request; 0 follows none.
    public var maxRedirects: Int
    /// Whether a redirect from `https` to `http` is followed; `false` by default.
    public var allowsInsecureDowngrade: Bool

    /// A policy following up to `maxRedirects` hops.
    public init(maxRedirects: Int = 10, allowsInsecureDowngrade: Bool = false) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureDowngrade = allowsInsecureDowngrade
    }

    /// Up to 10 redirects, never to plain `http` from `https`.
    public static let `default` = RedirectPolicy()
    /// Follows no redirect: the `3xx` response is validated like any other status. (Not `none`, which
    /// would read as `Optional.none`, "the client's policy", where a `RedirectPolicy?` is expected.)
    public static let never = RedirectPolicy(maxRedirects: 0)
    /// Up to `count` redirects.
    public static func limit(_ count: Int) -> RedirectPolicy { RedirectPolicy(maxRedirects: count) }
}

/// One redirect a request followed: which response sent it where. URLs are redacted like ``APIError/url``.
public struct Redirect: Sendable, Hashable, CustomStringConvertible {
    /// The redirect's status, such as `302 Found`.
    public let status: HTTPResponse.Status
    /// The method of the request that was redirected.
    public let method: HTTPRequest.Method
    /// The URL that answered with the redirect, secret query values redacted.
    public let url: String
    /// Where it pointed, resolved against ``url``, secret query values redacted.
    public let location: String

    /// `302 GET https://a.example/x → https://b.example/y`.
    public var description: String { "\(status.code) \(method.rawValue) \(url) → \(location)" }
}
