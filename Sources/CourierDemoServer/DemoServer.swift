package import Hummingbird
package import HummingbirdCore
public import Logging
package import NIOCore
import ServiceLifecycle

/// An in-process HTTP server for the `courier-demo` executable and Courier's end-to-end tests: the example APIs
/// and the routes of the demo tour. The tests' server, `CourierTestServer`, adds the routes only tests use.
///
/// It is an independent implementation of the wire format: it never imports Courier.
/// ```swift
/// let server = try await DemoServer.start()
/// let echo = server.baseURL.appending(path: "echo/hello")  // http://127.0.0.1:54321/echo/hello
/// // … send requests …
/// await server.shutdown()
/// ```
public struct DemoServer: Sendable {
    /// Adds a server's own routes and router middleware before the demo's (the test server's).
    package typealias Routes = @Sendable (Router<DemoContext>) -> Void

    /// How long `shutdown()` lets in-flight requests finish before cancelling them.
    static let gracefulShutdownLimit: Duration = .seconds(2)

    /// Starts the server on `host:port` and returns once it is accepting connections.
    ///
    /// - Parameters:
    ///   - host: The address to bind; the default is the IPv4 loopback address.
    ///   - port: The port to bind; the default, 0, picks any free port (read it from the result).
    ///   - logLevel: The server's log level; the default, `.warning`, keeps test output quiet.
    /// - Returns: The running server, with the port it really bound.
    /// - Throws: The bind error if the server cannot listen (for example, the port is in use).
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        logLevel: Logger.Level = .warning
    ) async throws -> RunningDemoServer {
        try await start(host: host, port: port, logLevel: logLevel, adding: nil)
    }

    /// The handlers every connection (every HTTP/2 stream) of the demo server runs before its routes:
    /// `Expect: 100-continue` and the `Origin-Date` field the cache tests read.
    package static func channelHandlers() -> [any RemovableChannelHandler] {
        [ExpectContinueHandler(), OriginDateHandler()]
    }

    /// ``start(host:port:logLevel:)`` serving `adding`'s routes besides the demo's, over `server` (HTTP/1.1 by
    /// default; the test server passes TLS with HTTP/2), its URLs with `scheme`.
    package static func start(
        host: String, port: Int, logLevel: Logger.Level, adding: Routes?,
        server: HTTPServerBuilder = .http1(configuration: .init(additionalChannelHandlers: channelHandlers())),
        scheme: String = "http"
    ) async throws -> RunningDemoServer {
        var logger = Logger(label: "CourierDemoServer")
        logger.logLevel = logLevel

        let startup = StartupSignal()
        let application = Application(
            router: DemoRouter.make(adding: adding),
            server: server,
            configuration: .init(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                if let boundPort = channel.localAddress?.port {
                    startup.succeed(port: boundPort)
                } else {
                    startup.fail(DemoServerError(message: "the listening socket has no local port"))
                }
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(services: [application], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = gracefulShutdownLimit
        let serviceGroup = ServiceGroup(configuration: groupConfiguration)

        let task = Task {
            do {
                try await serviceGroup.run()
                startup.fail(DemoServerError(message: "the server stopped before it was listening"))
            } catch {
                startup.fail(error)
                throw error
            }
        }

        do {
            let boundPort = try await withTaskCancellationHandler {
                try await startup.wait()
            } onCancel: {
                Task { await serviceGroup.triggerGracefulShutdown() }
            }
            try Task.checkCancellation()
            guard let baseURL = RunningDemoServer.baseURL(scheme: scheme, host: host, port: boundPort) else {
                throw DemoServerError(message: "\(host) cannot be the host of a URL")
            }
            return RunningDemoServer(
                host: host, port: boundPort, baseURL: baseURL, serviceGroup: serviceGroup, task: task)
        } catch {
            await serviceGroup.triggerGracefulShutdown()
            _ = await task.result
            throw error
        }
    }
}
