public import CourierDemoServer
import Hummingbird
import HummingbirdCore
import HummingbirdHTTP2
public import Logging
import NIOSSL

/// The server Courier's end-to-end tests talk to: the demo server's example APIs and tour routes, and the
/// routes that exist only for tests (statuses, echo, slow, truncated and endless bodies, redirects,
/// pagination, uploads, encoded bodies, XML, event streams, the cache-tests origin).
///
/// Like the demo server it never imports Courier, so a passing end-to-end test proves the wire format.
/// `courier-test-server` runs it in a process of its own, for the tests that measure their own memory.
/// ```swift
/// let server = try await TestServer.start()
/// let echo = server.baseURL.appending(path: "echo/hello")  // http://127.0.0.1:54321/echo/hello
/// // … send requests …
/// await server.shutdown()
/// ```
public enum TestServer {
    /// Starts a test server with state of its own on `host:port` and returns once it accepts connections.
    ///
    /// - Parameters:
    ///   - host: The address to bind; the default is the IPv4 loopback address.
    ///   - port: The port to bind; the default, 0, picks any free port (read it from the result).
    ///   - logLevel: The server's log level; the default, `.warning`, keeps test output quiet.
    /// - Returns: The running server, with the port it really bound.
    /// - Throws: The bind error if the server cannot listen (for example, the port is in use).
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, logLevel: Logger.Level = .warning
    ) async throws -> RunningDemoServer {
        let state = TestState()
        return try await DemoServer.start(host: host, port: port, logLevel: logLevel) { router in
            TestRouter.add(to: router, state: state)
        }
    }

    /// Starts a test server as ``start(host:port:logLevel:)`` does, over TLS with the certificate chain (PEM, the
    /// server's own first) and private key (PEM) in the files named: HTTP/2 or HTTP/1.1, as the client's ALPN
    /// asks. Its base URL is `https://host:port`.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, logLevel: Logger.Level = .warning,
        certificateChainFile: String, privateKeyFile: String
    ) async throws -> RunningDemoServer {
        let state = TestState()
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificateChainFile).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: privateKeyFile, format: .pem)))
        let server = try HTTPServerBuilder.http2Upgrade(
            tlsConfiguration: tls,
            configuration: .init(streamConfiguration: .init(additionalChannelHandlers: DemoServer.channelHandlers())))
        return try await DemoServer.start(
            host: host, port: port, logLevel: logLevel, adding: { router in TestRouter.add(to: router, state: state) },
            server: server, scheme: "https")
    }
}
