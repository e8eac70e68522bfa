import ArgumentParser
import Courier
import CourierDemoServer
import Foundation

/// `courier-demo tour` (the default): calls the demo API through Courier and prints what comes back.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour", abstract: "Calls the demo API through Courier and prints each result (the default).")

    @Option(help: "Run against this server instead of starting the embedded one.")
    var baseURL: String?

    func run() async throws {
        var server: RunningDemoServer?
        let base: URL
        if let baseURL {
            guard let url = URL(string: baseURL) else { throw ValidationError("--base-url is not a URL: \(baseURL)") }
            base = url
        } else {
            let started = try await DemoServer.start()
            server = started
            base = started.baseURL
        }
        print("Courier tour against \(base.absoluteString)\n")
        let failures = await Tour(baseURL: base).run()
        await server?.shutdown()
        if !failures.isEmpty {
            print("\n\(failures.count) step(s) failed: \(failures.joined(separator: ", "))")
            throw ExitCode.failure
        }
        print("\nAll steps succeeded.")
    }
}
