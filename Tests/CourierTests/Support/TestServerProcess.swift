import Foundation

/// `courier-test-server` (``TestServer`` alone) running as a child process, stopped by ``stop()``.
///
/// The child's standard input is a pipe from this process, and it stops when its input ends: the pipe ends when this process exits, so the child stops even if this process crashes or is killed before
/// ``stop()`` runs. Of its standard output, only the line with its address is read; nothing else is printed
/// there, and draining the pipe on another thread would add to the memory the tests measure.
final class TestServerProcess {
    /// How long the child may take to print its address before it is killed.
    static let startLimit = 30

    let baseURL: URL
    private let process = Process()
    private let input = Pipe()

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the server, over TLS with the certificate chain and key in the PEM files `tls` names, if given.
    init(tls: (chain: String, key: String)? = nil) throws {
        let output = Pipe()
        process.executableURL = try BuiltProducts.executable("courier-test-server")
        if let tls { process.arguments = ["--tls", tls.chain, tls.key] }
        process.standardInput = input
        process.standardOutput = output
        let started = ContinuousClock.now
        try process.run()
        // A child that prints no address in time is killed, which ends the read below. SIGKILL, because a
        // child can inherit a signal mask that blocks SIGTERM from the thread that started it.
        let watchdog = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Self.startLimit), execute: watchdog)
        let line = Self.firstLine(of: output.fileHandleForReading)
        watchdog.cancel()
        guard let url = Self.address(in: line) else {
            Self.end(process, closing: input)
            let seconds = (ContinuousClock.now - started).components.seconds
            throw StartFailure(
                description: """
                    courier-test-server printed no address in \(seconds) s (it is killed after \(Self.startLimit) s), \
                    and ended with status or signal \(process.terminationStatus); it printed "\(line)"
                    """)
        }
        baseURL = url
    }

    func stop() {
        Self.end(process, closing: input)
    }

    /// What the child prints up to its first line break, or all it prints if it exits without one.
    private static func firstLine(of output: FileHandle) -> String {
        var text = ""
        while !text.contains("\n") {
            let data = output.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        return text
    }

    /// The URL in `Courier test server listening on http://127.0.0.1:PORT (…)`.
    private static func address(in line: String) -> URL? {
        guard let start = line.range(of: "listening on ") else { return nil }
        return URL(string: String(line[start.upperBound...].prefix { $0 != " " && $0 != "\n" }))
    }

    /// Ends the child's input and terminates it, and waits until it has exited.
    private static func end(_ process: Process, closing input: Pipe) {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
