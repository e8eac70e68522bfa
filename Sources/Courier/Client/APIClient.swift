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
    /// The client's pipeline, assembled when the client was made, with everything it was built from: one
    /// reference, so copies of a client (and the async frames of its requests) carry a pointer.
    let pipeline: Pipeline

    /// The URL every path is relative to; it may carry a path prefix such as `/urlshortener/v1`.
    public var baseURL: URL { pipeline.baseURL }
    /// What sends requests: ``DefaultTransport/make()`` unless you pass another `ClientTransport`
    /// (``HTTPClientTransport`` on Linux, ``StreamingURLSessionTransport`` on Apple platforms).
    public var transport: any ClientTransport { pipeline.transport }
    /// Middleware, outermost first: the first sees the request first and the response last.
    public var middlewares: [any ClientMiddleware] { pipeline.middlewares }
    /// Defaults and limits for every request.
    public var configuration: Configuration { pipeline.configuration }

    /// The base URL without a trailing `/` (as a URL for transports and as text for errors), or why it
    /// can't be used.
    var base: Result<NormalizedBase, APIError> { pipeline.base }
    /// In-flight requests of ``CancellableByType`` endpoints.
    var registry: RequestRegistry { pipeline.registry }

    /// Creates a client, assembling its pipeline: only the stages `configure` asks for exist.
    /// - Parameters:
    ///   - baseURL: an absolute `http` or `https` URL, with or without a path prefix, without a query.
    ///     An unusable one makes every request fail with ``APIError/Kind/invalidRequest``.
    ///   - transport: what sends requests; by default ``DefaultTransport/make()``: ``HTTPClientTransport``
    ///     over a process-wide `HTTPClient` on Linux, ``StreamingURLSessionTransport`` on Apple platforms.
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
        pipeline = Pipeline(
            baseURL: baseURL, transport: transport, middlewares: middlewares, configuration: configuration)
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
