public import Foundation
import ServiceLifecycle

/// A demo server that is accepting connections; returned by ``DemoServer/start(host:port:logLevel:)``.
public final class RunningDemoServer: Sendable {
    /// The address the server is bound to, as passed to `start`.
    public let host: String
    /// The port the server really bound (never 0).
    public let port: Int
    /// The server's root URL, for example `http://127.0.0.1:54321` (an IPv6 host is bracketed).
    public let baseURL: URL

    private let serviceGroup: ServiceGroup
    private let task: Task<Void, any Error>

    init(host: String, port: Int, baseURL: URL, serviceGroup: ServiceGroup, task: Task<Void, any Error>) {
        self.host = host
        self.port = port
        self.baseURL = baseURL
        self.serviceGroup = serviceGroup
        self.task = task
    }

    /// Stops the server: stops accepting connections, lets in-flight requests finish for up to
    /// two seconds, then cancels the rest. Returns once the server has stopped; safe to call repeatedly.
    public func shutdown() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = await task.result
    }

    /// Waits until the server stops (after ``shutdown()`` or a failure), for a `serve` command.
    ///
    /// Cancelling the waiting task shuts the server down as ``shutdown()`` does.
    public func run() async throws {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: { [serviceGroup] in
            Task { await serviceGroup.triggerGracefulShutdown() }
        }
    }

    /// `http://host:port`, or nil if `host` cannot be a URL host.
    static func baseURL(host: String, port: Int) -> URL? {
        let authorityHost = host.contains(":") ? "[\(host)]" : host
        return URL(string: "http://\(authorityHost):\(port)")
    }
}
