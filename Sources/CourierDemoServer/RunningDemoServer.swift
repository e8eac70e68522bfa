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

    /// Shuts the server down when this process's standard input ends (or can't be read), for a `serve`
    /// command whose parent holds a pipe to it: the pipe ends when the parent exits, however it exits.
    /// Standard input is read on a thread of its own, discarding what arrives, one `read` at a time, so that
    /// a Ctrl-D after a typed line ends it too.
    package func shutDownAtEndOfInput() {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            Task { await self.shutdown() }
        }
    }

    /// `http://host:port`, or nil if `host` cannot be a URL host.
    static func baseURL(scheme: String = "http", host: String, port: Int) -> URL? {
        let authorityHost = host.contains(":") ? "[\(host)]" : host
        return URL(string: "\(scheme)://\(authorityHost):\(port)")
    }
}
