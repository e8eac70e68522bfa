import ArgumentParser
import Courier
import CourierDemoServer
import Foundation
import Logging
import OpenAPIRuntime

/// `courier-demo tour` (the default): every example client against the demo API, step by step.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "Walks through every example client against the demo API (the default).",
        discussion: """
            Starts the demo server on a free 127.0.0.1 port in this process, unless --base-url names a \
            server that is already running (such as `courier-demo serve`). Exits non-zero, naming the steps, \
            if any step fails.
            """)

    @Option(help: "Run against this server instead of starting the embedded one.")
    var baseURL: String?

    @Flag(help: "Log every request (redacted) as it is sent, with a curl command.")
    var verbose = false

    func run() async throws {
        var server: RunningDemoServer?
        let base: URL
        if let baseURL {
            guard let url = URL(string: baseURL), url.scheme != nil else {
                throw ValidationError("--base-url is not an absolute URL: \(baseURL)")
            }
            base = url
        } else {
            let started = try await DemoServer.start()
            server = started
            base = started.baseURL
        }
        let output = TourOutput()
        var middlewares: [any ClientMiddleware] = []
        if verbose {
            var logger = Logger(label: "courier-demo") { StreamLogHandler.standardOutput(label: $0) }
            logger.logLevel = .debug
            middlewares.append(.logging(logger, logsCURL: true))
        }
        output.title("Courier tour against \(base.absoluteString)")
        let tour = Tour(
            baseURL: base, againstEmbeddedServer: server != nil, middlewares: middlewares, output: output)
        await tour.run()
        await server?.shutdown()
        output.summary()
        if !output.failures.isEmpty { throw ExitCode.failure }
    }
}
