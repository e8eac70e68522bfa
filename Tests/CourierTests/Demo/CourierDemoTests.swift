import Foundation
import Synchronization
import Testing

/// The built `courier-demo` binary, run as a user would: the tour against its embedded server, and
/// `serve` in one process with the tour against it (`--base-url`) in another.
///
/// One test at a time: a child spawned while another test's child is being spawned can inherit the other's
/// output pipe (Foundation's `Process` on Linux may leave other descriptors open in the child),
/// and then the first child's output never ends while the second runs: `--help` once waited 10 s in CI for
/// the end of its output while `serve` held the pipe open.
@Suite(.serialized, .timeLimit(.minutes(1))) struct CourierDemoTests {
    static let sections = [
        "URL shortener", "GitHub-style API", "Flickr-style photos", "Envelope API", "Form login",
        "Retries and downloads", "HTTP cache and coalescing", "Streaming",
    ]

    /// `courier-demo` beside the tests in the build folder.
    static func binary() throws -> URL {
        try BuiltProducts.executable("courier-demo")
    }

    /// A running child process whose standard output is collected.
    final class Child: Sendable {
        /// The bytes the child has written so far.
        final class Output: Sendable {
            let bytes = Mutex(Data())
            /// Whether the pipe has reached its end (the child closed it, or exited).
            let ended = Atomic<Bool>(false)
        }

        let process = Process()
        private let output = Output()

        init(_ executable: URL, _ arguments: [String]) throws {
            process.executableURL = executable
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            pipe.fileHandleForReading.readabilityHandler = { [output] handle in
                let chunk = handle.availableData
                if chunk.isEmpty {
                    handle.readabilityHandler = nil
                    output.ended.store(true, ordering: .releasing)
                }
                output.bytes.withLock { $0.append(chunk) }
            }
            try process.run()
        }

        var text: String { output.bytes.withLock { String(decoding: $0, as: UTF8.self) } }

        /// Waits (without blocking a thread) until the process ends and its output is read to the end, or
        /// `limit` passes (the process is then ended).
        func exitCode(within limit: Duration) async throws -> Int32 {
            do {
                try await eventually("the process ending with its output read", within: limit) {
                    !process.isRunning && output.ended.load(ordering: .acquiring)
                }
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
