public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// Sends endpoints to one web API and returns typed values or ``APIError``s.
///
/// A `Sendable` struct: copy it freely, share it across tasks. It holds its base URL, transport, middleware
/// and ``Configuration``, none of which change, and one registry that does: the in-flight requests of
/// ``CancellableByType`` endpoints, for ``cancelAll(_:where:)``, shared by the client's copies. Middleware
/// that needs state (a ``TokenStore``, a throttle) keeps it inside, so copies share that too.
/// ```swift
/// let client = APIClient(baseURL: githubURL) {
///     $0.errorBody = GitHubError.self
///     $0.defaultHeaders[.accept] = "application/vnd.github+json"
/// }
/// let user = try await client.send(GetUser(login: "octocat"))
/// ```
public struct APIClient: Sendable {
    /// The URL every path is relative to; it may carry a path prefix such as `/urlshortener/v1`.
    public let baseURL: URL
    /// What sends requests: ``DefaultTransport/make()`` unless you pass another `ClientTransport`
    /// (``HTTPClientTransport`` on Linux, `URLSessionTransport` on Apple platforms).
    public let transport: any ClientTransport
    /// Middleware, outermost first: the first sees the request first and the response last.
    public let middlewares: [any ClientMiddleware]
    /// Defaults and limits for every request.
    public let configuration: Configuration

    /// The base URL without a trailing `/` (as a URL for transports and as text for errors), or why it
    /// can't be used.
    let base: Result<NormalizedBase, APIError>
    /// In-flight requests of ``CancellableByType`` endpoints.
    let registry = RequestRegistry()
    /// The requests in flight that identical ones may share (see ``Configuration/coalescesRequests``).
    let coalescer = Coalescer<RequestKey>()

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: an absolute `http` or `https` URL, with or without a path prefix, without a query.
    ///     An unusable one makes every request fail with ``APIError/Kind/invalidRequest``.
    ///   - transport: what sends requests; by default ``DefaultTransport/make()``: ``HTTPClientTransport``
    ///     over a process-wide `HTTPClient` on Linux, `URLSessionTransport` on `URLSession.shared` on Apple
    ///     platforms.
    ///   - middlewares: outermost first.
    ///   - configure: adjusts the default ``Configuration``.
    public init(
        baseURL: URL,
        transport: any ClientTransport = DefaultTransport.make(),
        middlewares: [any ClientMiddleware] = [],
        configure: (inout Configuration) -> Void = { _ in }
    ) {
        var configuration = Configuration()
        configure(&configuration)
        self.baseURL = baseURL
        self.transport = transport
        self.middlewares = middlewares
        self.configuration = configuration
        self.base = Self.validate(baseURL)
    }

    private static func validate(_ url: URL) -> Result<NormalizedBase, APIError> {
        func invalid(_ reason: String) -> Result<NormalizedBase, APIError> {
            let shown = Redaction.default.redact(url: url.absoluteString)
            var error = APIError(.invalidRequest, phase: .building, message: "base URL \(shown) \(reason)")
            error.url = shown
            return .failure(error)
        }
        let origin: Origin
        switch Origin.validate(url) {
        case .success(let valid): origin = valid
        case .failure(let invalidURL): return invalid(invalidURL.reason)
        }
        guard url.query(percentEncoded: true) == nil, url.fragment(percentEncoded: true) == nil else {
            return invalid("must not have a query or fragment; use defaultQuery for query items")
        }
        let text = url.textWithoutTrailingSlash
        guard let trimmed = URL(string: text) else { return invalid("is not a valid URL") }
        return .success(NormalizedBase(url: trimmed, text: text, origin: origin))
    }
}

extension APIClient {
    /// The base URL without a trailing `/` (as given when it is invalid; requests then fail before sending).
    var resolvedBaseURL: URL { (try? base.get().url) ?? baseURL }

    /// Where `request` goes: the base URL, or the origin of the absolute URL it was built for (its
    /// `authority` set, see ``RoutePath/url(_:)``).
    func baseURL(for request: HTTPRequest) -> URL {
        guard request.authority != nil else { return resolvedBaseURL }
        return URL(string: baseText(for: request)) ?? resolvedBaseURL
    }

    /// ``baseURL(for:)`` as text, for errors.
    func baseText(for request: HTTPRequest) -> String {
        if let authority = request.authority { return "\(request.scheme ?? "https")://\(authority)" }
        return (try? base.get().text) ?? baseURL.absoluteString
    }
}

/// A validated base URL without a trailing `/`: transports append request paths to it.
struct NormalizedBase: Sendable {
    let url: URL
    let text: String
    let origin: Origin
}
