public import OpenAPIRuntime

/// The transport a client uses when you don't pass one: the fastest maintained one for the platform.
///
/// - On Linux, ``HTTPClientTransport`` (AsyncHTTPClient: SwiftNIO, connection pooling, streaming bodies)
///   on its process-wide ``HTTPClientTransport/sharedClient``, whose connection attempts are not retried
///   behind your back.
/// - On Apple platforms, ``StreamingURLSessionTransport/shared``: URLSession with streamed bodies and
///   redirects left to Courier. ``HTTPClientTransport`` is available on macOS too: pass it for the
///   transport a server deploys with.
///
/// Pass any other `ClientTransport` to ``APIClient/init(baseURL:transport:middlewares:configure:)`` to
/// override it, for example `HTTPClientTransport(client: yourClient)`.
public enum DefaultTransport {
    /// A default transport for this platform.
    public static func make() -> any ClientTransport {
        #if canImport(AsyncHTTPClient) && !canImport(Darwin)
            HTTPClientTransport()
        #else
            StreamingURLSessionTransport.shared
        #endif
    }
}
