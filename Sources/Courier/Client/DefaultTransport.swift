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

    /// A default transport for this platform whose connections use `tls` (see ``TLSSettings``): on Linux and
    /// macOS, ``HTTPClientTransport``, which applies every setting (on macOS ``make()``'s URLSession is kept
    /// for `.default`); elsewhere ``StreamingURLSessionTransport``. Throws when a certificate or key in `tls`
    /// cannot be loaded.
    public static func make(tls: TLSSettings) throws(TLSMaterialError) -> any ClientTransport {
        #if canImport(AsyncHTTPClient)
            tls == .default ? make() : try HTTPClientTransport(tls: tls)
        #else
            StreamingURLSessionTransport(tls: tls)
        #endif
    }
}
