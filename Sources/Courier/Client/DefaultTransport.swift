public import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
#endif

/// The transport a client uses when you don't pass one: the fastest maintained one for the platform.
///
/// - On Linux, ``HTTPClientTransport`` (AsyncHTTPClient: SwiftNIO, connection pooling, streaming bodies)
///   on one process-wide `HTTPClient`. That client has AsyncHTTPClient's shared configuration with one
///   change: AsyncHTTPClient's own retrying of failed connection attempts is off, so a refused connection
///   fails at once instead of waiting out the connect timeout, and retrying stays with the policy you
///   choose (``RetryMiddleware``) instead of being multiplied by a hidden one.
/// - On Apple platforms, swift-openapi-urlsession's `URLSessionTransport` on `URLSession.shared`.
///
/// Pass any other `ClientTransport` to ``APIClient/init(baseURL:transport:middlewares:configure:)`` to
/// override it, for example `HTTPClientTransport(client: yourClient)`.
public enum DefaultTransport {
    /// A default transport for this platform.
    public static func make() -> any ClientTransport {
        #if canImport(AsyncHTTPClient)
            HTTPClientTransport(client: sharedHTTPClient)
        #else
            URLSessionTransport()
        #endif
    }

    #if canImport(AsyncHTTPClient)
        /// Lives as long as the process, like `HTTPClient.shared`, so it is never shut down.
        private static let sharedHTTPClient: HTTPClient = {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.connectionPool.retryConnectionEstablishment = false
            return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }()
    #endif
}
