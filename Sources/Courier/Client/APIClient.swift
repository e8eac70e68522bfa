public import Foundation
public import OpenAPIRuntime

/// Sends endpoints to one web API and returns typed values or ``APIError``s.
///
/// A `Sendable` value: copy it freely, share it across tasks. It holds no mutable state of its own;
/// middleware that needs some (a token store, a throttle) keeps it inside.
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.github.com")!) {
///     $0.errorBody = GitHubError.self
///     $0.defaultHeaders[.accept] = "application/vnd.github+json"
/// }
/// let user = try await client.send(GetUser(login: "octocat"))
/// ```
public struct APIClient: Sendable {
    /// The URL every path is relative to; it may carry a path prefix such as `/urlshortener/v1`.
    public let baseURL: URL
    /// What sends requests: `URLSessionTransport` unless you pass another `ClientTransport`.
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

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: an absolute `http` or `https` URL, with or without a path prefix, without a query.
    ///     An unusable one makes every request fail with ``APIError/Kind/invalidRequest``.
    ///   - transport: what sends requests; `URLSessionTransport()` by default.
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
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return invalid("is not a valid URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return invalid("must start with http:// or https://")
        }
        guard let host = components.host, !host.isEmpty else { return invalid("has no host") }
        guard components.user == nil, components.password == nil else {
            return invalid("must not carry credentials; use .basicAuth(username:password:)")
        }
        guard components.percentEncodedQuery == nil, components.fragment == nil else {
            return invalid("must not have a query or fragment; use defaultQuery for query items")
        }
        let text = url.textWithoutTrailingSlash
        guard let trimmed = URL(string: text) else { return invalid("is not a valid URL") }
        return .success(NormalizedBase(url: trimmed, text: text))
    }
}

extension APIClient {
    /// The base URL without a trailing `/` (as given when it is invalid; requests then fail before sending).
    var resolvedBaseURL: URL { (try? base.get().url) ?? baseURL }
}

/// A validated base URL without a trailing `/`: transports append request paths to it.
struct NormalizedBase: Sendable {
    let url: URL
    let text: String
}
