import Courier
import CourierDemoServer
import CourierTesting
import Foundation
import OpenAPIRuntime
import Testing

/// Where an example client's test sends its requests. Every example test runs twice: against a fresh demo
/// server, and from the cassette committed for it in `Tests/Cassettes/Examples` with no server and no network
/// at all (the replaying cassette has no transport to fall back on).
///
/// `COURIER_CASSETTES=record swift test --filter ClientTests` re-records the cassettes from the demo server;
/// `ExampleCassetteTests` checks that what was committed holds no secret and is valid HAR 1.2.
enum ExampleBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case demoServer
    case cassette

    var testDescription: String { self == .demoServer ? "demo server" : "cassette, no server" }

    /// Both, except while recording (`COURIER_CASSETTES=record`): the demo server alone then, as the cassettes
    /// are being rewritten.
    static var active: [ExampleBackend] {
        CassetteTransport.Mode.fromEnvironment() == .record ? [.demoServer] : allCases
    }

    /// The origin the cassettes are written with, in place of the demo server's random port, and the base URL
    /// they replay for.
    static let origin = URL(string: "http://demo.invalid")

    /// The folder of the committed cassettes.
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "Cassettes/Examples")

    /// The cassette of the test `function` in the suite of `file`: `GitHubClient/notFoundIsGitHubsError.har`.
    static func cassette(file: String, function: String) -> URL {
        let suite = (file.split(separator: "/").last.map(String.init) ?? file).replacing("Tests.swift", with: "")
        let test = function.prefix { $0 != "(" }
        return folder.appending(path: suite).appending(path: "\(test).har")
    }

    /// Runs `body` with the base URL and the transport the example clients of one test must use, and checks
    /// afterwards that a replay made every request the recording did.
    func run<T>(
        file: String = #fileID, function: String = #function, _ body: (URL, any ClientTransport) async throws -> T
    ) async throws -> T {
        let file = Self.cassette(file: file, function: function)
        switch self {
        case .demoServer:
            return try await TestServers.withFreshTestServer { base in
                guard CassetteTransport.Mode.fromEnvironment() == .record else {
                    return try await body(base, DefaultTransport.make())
                }
                // Nearly the same file at every recording: the server's random port and the machine in
                // `User-Agent` are not written (the rate limit's reset time is: the client reads it).
                let cassette = try CassetteTransport(
                    file: file, mode: .record, recordingThrough: DefaultTransport.make(), writtenOrigin: Self.origin,
                    omitting: [.userAgent])
                let result = try await body(base, cassette)
                try cassette.save()
                return result
            }
        case .cassette:
            let cassette = try CassetteTransport(file: file, mode: .replay)
            let result = try await body(try #require(Self.origin), cassette)
            #expect(cassette.unplayed.isEmpty, "recorded but never requested: \(cassette.unplayed)")
            return result
        }
    }
}

/// The committed example cassettes: one for each example test that reaches the server, none holding a secret
/// any example test uses (in any spelling) or a token the demo server issued, each valid HAR 1.2.
@Suite struct ExampleCassetteTests {
    static let secrets = [
        DemoCredentials.shortenerAPIKey, DemoCredentials.flickrAPIKey, DemoCredentials.githubToken,
        DemoCredentials.envelopePassword, DemoCredentials.loginPassword, "correct%20horse", "correct+horse",
        "WRONG-KEY-0001", "WRONG-FLICKR-KEY", "ghp_WRONG_TOKEN_123456", "wrong-password-xyz", "nope-wrong-password",
    ]

    static func files() throws -> [URL] {
        let suites = try FileManager.default.contentsOfDirectory(
            at: ExampleBackend.folder, includingPropertiesForKeys: nil)
        return try suites.flatMap {
            try FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)
        }
        .filter { $0.pathExtension == "har" }.sorted { $0.path() < $1.path() }
    }

    @Test func noCassetteHoldsASecretOrAnIssuedToken() throws {
        let files = try Self.files()
        #expect(files.count == 16)
        // The demo server's access and refresh tokens: `at_`, `rt_` and `env_` before random hex.
        let issued = /(at|rt|env)_[0-9a-f]{8,}/
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for secret in Self.secrets {
                #expect(!text.contains(secret), "\(file.lastPathComponent) holds \(secret)")
            }
            #expect(text.firstMatch(of: issued) == nil, "\(file.lastPathComponent) holds an issued token")
        }
    }

    @Test func everyCassetteIsValidHAR() throws {
        try CassetteTests.expectValidHAR(try Self.files())
    }
}
