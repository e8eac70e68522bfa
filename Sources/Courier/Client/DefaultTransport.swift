public import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(OpenAPIAsyncHTTPClient)
    import OpenAPIAsyncHTTPClient
#endif

/// The transport a client uses when you don't pass one: the fastest maintained one for the platform.
///
/// - On Linux, swift-openapi-async-http-client's `AsyncHTTPClientTransport` on `HTTPClient.shared`
///   (SwiftNIO, connection pooling, streaming bodies). Measured on loopback it serves several times the
///   requests per second of URLSession at a fraction of the CPU per request (see the README's Performance).
/// - On Apple platforms, swift-openapi-urlsession's `URLSessionTransport` on `URLSession.shared`.
///
/// Pass any other `ClientTransport` to ``APIClient/init(baseURL:transport:middlewares:configure:)`` to
/// override it.
public enum DefaultTransport {
    /// A new default transport for this platform.
    public static func make() -> any ClientTransport {
        #if canImport(OpenAPIAsyncHTTPClient)
            AsyncHTTPClientTransport()
        #else
            URLSessionTransport()
        #endif
    }
}
