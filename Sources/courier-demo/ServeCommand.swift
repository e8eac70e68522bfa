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
        // Unbuffered, so that a supervisor reading a pipe sees the address at once.
        let line = "Courier demo server listening on \(server.baseURL.absoluteString) (Ctrl-C to stop)\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        try await server.run()
    }
}
