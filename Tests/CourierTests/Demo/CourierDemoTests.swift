import Foundation
import Synchronization
import Testing

/// The built `courier-demo` binary, run as a user would: the tour against its embedded server, and
/// `serve` in one process with the tour against it (`--base-url`) in another.
///
/// One test at a time: each starts processes of its own (see ``Child``).
@Suite(.serialized, .timeLimit(.minutes(1))) struct CourierDemoTests {
    static let sections = [
        "URL shortener", "GitHub-style API", "Flickr-style photos", "Envelope API", "Form login",
        "Retries and downloads", "HTTP cache and coalescing", "Streaming",
    ]

    /// `courier-demo` beside the tests in the build folder.
    static func binary() throws -> URL {
        try BuiltProducts.executable("courier-demo")
    }

    /// A running child process whose standard output goes to a file of its own.
    ///
    /// A file, not a pipe: a pipe's end is seen only when every process holding its write end has closed it,
    /// and Foundation's `Process` on Linux may leave a descriptor open in a child another test spawns at that
    /// moment (a `python3` or `sha256sum` run by another suite), so `--help` once waited 10 s in CI for the end
    /// of output it had long written.
    final class Child: Sendable {
        let process = Process()
        private let file: URL

        init(_ executable: URL, _ arguments: [String]) throws {
            process.executableURL = executable
            process.arguments = arguments
            file = FileManager.default.temporaryDirectory.appending(path: "courier-demo-\(UUID().uuidString).out")
            guard FileManager.default.createFile(atPath: file.path(percentEncoded: false), contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let output = try FileHandle(forWritingTo: file)
            process.standardOutput = output
            try process.run()
            try output.close()  // the child has its own descriptor
        }

        deinit { try? FileManager.default.removeItem(at: file) }

        /// What the child has written so far.
        var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

        /// Waits (without blocking a thread) until the process ends, or `limit` passes (the process is then
        /// ended).
        func exitCode(within limit: Duration) async throws -> Int32 {
            do {
                try await eventually("the process ending", within: limit) { !process.isRunning }
            } catch {
                process.terminate()
                throw error
            }
            return process.terminationStatus
        }
    }

    @Test func theTourRunsEverySectionAndExitsZero() async throws {
        let started = ContinuousClock.now
        let tour = try Child(Self.binary(), [])
        let status = try await tour.exitCode(within: .seconds(30))
        let text = tour.text
        #expect(status == 0, "courier-demo exited \(status):\n\(text)")
        for section in Self.sections { #expect(text.contains(section), "no \"\(section)\" section:\n\(text)") }
        #expect(text.contains("steps succeeded"))
        #expect(!text.contains("✗"))
        #expect(ContinuousClock.now - started < .seconds(10), "the tour must finish in under 10 seconds")
        #expect(!text.contains("demo-shortener-key"), "the tour printed an API key")
    }

    @Test func serveAndTheTourAgainstItWithBaseURL() async throws {
        let server = try Child(Self.binary(), ["serve", "--port", "0"])
        defer { server.process.terminate() }
        func address() -> String? {
            server.text.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init)
        }
        try await eventually("serve printing its address", within: .seconds(15)) { address() != nil }
        let url = try #require(address(), "serve printed no address:\n\(server.text)")
        let tour = try Child(Self.binary(), ["--base-url", url, "--verbose"])
        let status = try await tour.exitCode(within: .seconds(30))
        let text = tour.text
        #expect(status == 0, "the tour against serve exited \(status):\n\(text)")
        #expect(text.contains("Courier tour against \(url)"))
        #expect(text.contains("curl -X POST"), "--verbose shows the requests")
        #expect(!text.contains(DemoSecrets.shortenerKey), "--verbose printed an API key")
        server.process.interrupt()
        #expect(try await server.exitCode(within: .seconds(10)) == 0 || !server.process.isRunning)
    }

    @Test func helpExplainsTheCommands() async throws {
        let help = try Child(Self.binary(), ["--help"])
        #expect(try await help.exitCode(within: .seconds(10)) == 0)
        #expect(help.text.contains("serve"))
        #expect(help.text.contains("tour"))
    }
}

/// The demo's keys, spelled out here so the tests notice if one is ever printed.
enum DemoSecrets {
    static let shortenerKey = "demo-shortener-key"
}
