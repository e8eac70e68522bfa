import ArgumentParser
import CourierDemoServer
import Foundation

/// `courier-demo serve`: runs the demo server alone until interrupted.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Runs the demo server alone until interrupted.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    func run() async throws {
        let server = try await DemoServer.start(host: host, port: port)
        print("Courier demo server listening on \(server.baseURL.absoluteString) (Ctrl-C to stop)")
        try await server.run()
    }
}
