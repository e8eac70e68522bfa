import ArgumentParser
import CourierDemoServer
import Foundation

/// `courier-demo serve`: runs the demo server alone until interrupted.
///
/// It prints one line, `Courier demo server listening on http://HOST:PORT (…)`, once it accepts connections.
/// With `--stop-at-end-of-input` it also stops, and exits 0, when its standard input ends (Ctrl-D at a
/// terminal). A parent that starts it with a pipe on its standard input, as the memory tests do, can't leave
/// it running: the pipe ends when the parent exits, however it exits. Standard input is read only with the
/// flag, so by default the server keeps running where standard input is `/dev/null`, as in a job a script
/// starts in the background.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Runs the demo server alone until interrupted.",
        discussion: """
            Prints one line with the server's address once it accepts connections. Ctrl-C stops it; with \
            --stop-at-end-of-input, so does the end of standard input (Ctrl-D in a terminal, or the parent \
            process exiting when standard input is a pipe from it).
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8080

    @Flag(help: "Stop when standard input ends, so that a parent holding a pipe to it can't leave it running.")
    var stopAtEndOfInput = false

    func run() async throws {
        let server = try await DemoServer.start(host: host, port: port)
        if stopAtEndOfInput { server.shutDownAtEndOfInput() }
        let stop = stopAtEndOfInput ? "Ctrl-C or end of input to stop" : "Ctrl-C to stop"
        // Unbuffered, so that a supervisor reading a pipe sees the address at once.
        let line = "Courier demo server listening on \(server.baseURL.absoluteString) (\(stop))\n"
        FileHandle.standardOutput.write(Data(line.utf8))
        try await server.run()
    }
}
