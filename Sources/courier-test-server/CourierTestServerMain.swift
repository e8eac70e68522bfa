import CourierDemoServer
import CourierTestServer
import Foundation

/// `courier-test-server`: the test server alone, on a free 127.0.0.1 port, for the tests that measure their
/// own memory and so need the server in another process. `courier-test-server --tls CHAIN.pem KEY.pem` serves
/// it over TLS (HTTP/2 by ALPN) with that certificate chain and key.
///
/// It prints one line, `Courier test server listening on http://127.0.0.1:PORT (…)`, once it accepts
/// connections, and stops, exiting 0, when its standard input ends: a parent that starts it with a pipe on
/// its standard input can't leave it running, however the parent exits.
@main
enum CourierTestServerMain {
    static func main() async {
        do {
            let arguments = CommandLine.arguments
            let server =
                if arguments.count == 4, arguments[1] == "--tls" {
                    try await TestServer.start(certificateChainFile: arguments[2], privateKeyFile: arguments[3])
                } else {
                    try await TestServer.start()
                }
            server.shutDownAtEndOfInput()
            // Unbuffered, so that the parent reading a pipe sees the address at once.
            let line = "Courier test server listening on \(server.baseURL.absoluteString) (end of input to stop)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            try await server.run()
        } catch {
            FileHandle.standardError.write(Data("courier-test-server: \(error)\n".utf8))
            exit(1)
        }
    }
}
