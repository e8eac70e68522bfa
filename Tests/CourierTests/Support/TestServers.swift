import CourierDemoServer
import Foundation

/// The real servers the end-to-end tests talk to, all on 127.0.0.1.
enum TestServers {
    /// One in-process demo server for the whole test run, started on first use on a free port.
    private static let demo = Task { try await DemoServer.start() }

    /// The demo server's base URL, starting it if needed.
    static func demoURL() async throws -> URL { try await demo.value.baseURL }

    /// A second demo server on another loopback address (127.0.0.2): another origin, for redirect tests.
    private static let secondOrigin = Task { try await DemoServer.start(host: "127.0.0.2") }

    /// The second demo server's base URL, starting it if needed.
    static func secondOriginURL() async throws -> URL { try await secondOrigin.value.baseURL }

    /// httpbin under gunicorn, started by `scripts/test` (or CI) and named by `COURIER_HTTPBIN_URL`.
    static let httpbinURL: URL? = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"].flatMap {
        URL(string: $0)
    }

    /// httpbin tests run when httpbin is there, and always on CI, where a missing httpbin must fail.
    static let httpbinAvailable = httpbinURL != nil || ProcessInfo.processInfo.environment["CI"] != nil
}

extension TestServers {
    /// Runs `body` against a demo server of its own, for tests that read the server's counters.
    static func withFreshDemoServer<T>(_ body: (URL) async throws -> T) async throws -> T {
        let server = try await DemoServer.start()
        do {
            let result = try await body(server.baseURL)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }
}

extension TestServers {
    /// Runs `body` against the demo server in a process of its own (`courier-demo serve --port 0`, built
    /// beside the tests), so that memory measured in this process is the client's alone.
    static func withDemoServerProcess<T>(_ body: (URL) async throws -> T) async throws -> T {
        let server = try DemoServerProcess()
        defer { server.stop() }
        return try await body(server.baseURL)
    }
}

/// `courier-demo serve` running as a child process, stopped by ``stop()``.
private final class DemoServerProcess {
    let baseURL: URL
    private let process = Process()

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        let tests = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
        let binary = tests.deletingLastPathComponent().appending(path: "courier-demo")
        guard FileManager.default.isExecutableFile(atPath: binary.path(percentEncoded: false)) else {
            throw StartFailure(description: "no courier-demo beside the tests at \(binary.path); build it first")
        }
        let output = Pipe()
        process.executableURL = binary
        process.arguments = ["serve", "--port", "0"]
        process.standardOutput = output
        try process.run()
        // The server prints one line with its address once it listens.
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let start = text.range(of: "listening on "),
            let url = URL(string: String(text[start.upperBound...].prefix { $0 != " " && $0 != "\n" }))
        else {
            process.terminate()
            process.waitUntilExit()
            throw StartFailure(description: "courier-demo serve printed no address: \(text)")
        }
        baseURL = url
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
