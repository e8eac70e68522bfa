import Courier
import CourierDemoServer
import CourierExamples
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import CourierTesting

/// Cassettes: example clients recorded against the demo server, then replayed with the server stopped; what
/// is written never holds a secret; misses name the nearest recorded request.
@Suite(.timeLimit(.minutes(1)))
struct CassetteTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "courier-cassettes-\(UUID().uuidString)")
    }

    /// Every call the examples make, through `transport`; returns what they got, to compare across runs, and
    /// the tokens the login issued.
    static func tour(_ base: URL, transport: any ClientTransport, issued: inout [String]) async throws -> [String] {
        var seen: [String] = []
        let shortener = URLShortener(
            baseURL: base.appending(path: "urlshortener/v1"), apiKey: Secret(DemoCredentials.shortenerAPIKey),
            transport: transport)
        let short = try await shortener.shorten("https://swift.org/?a=1&b=2")
        seen.append(try await shortener.lookup(short.id).longUrl)
        let accounts = AccountClient(baseURL: base, transport: transport)
        seen.append(
            try await accounts.logIn(email: DemoCredentials.loginEmail, password: Secret(DemoCredentials.loginPassword))
                .email)
        seen.append(try await accounts.me().name)
        if let token = await accounts.tokens.currentToken {
            issued += [token.value] + (token.refreshToken.map { [$0] } ?? [])
        }
        let github = GitHubClient(baseURL: base, token: Secret(DemoCredentials.githubToken), transport: transport)
        seen.append(try await github.user("octocat").user.login)
        for try await repository in github.searchRepositories("swift", perPage: 5, maxPages: 2) {
            seen.append(repository.fullName)
        }
        let missing = await #expect(throws: APIError.self) { try await github.user("nobody") }
        seen.append("\(missing?.status?.code ?? 0)")
        return seen
    }

    @Test func theExamplesRecordedReplayWithTheServerStoppedAndNoSecretIsWritten() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var base: URL?
        var issued: [String] = []
        let recorded = try await TestServers.withFreshTestServer { url in
            base = url
            return try await withCassette(
                "examples", in: folder, mode: .record, recordingThrough: DefaultTransport.make()
            ) { cassette in try await Self.tour(url, transport: cassette, issued: &issued) }
        }
        let url = try #require(base)
        // The server is stopped: only the cassette can answer.
        var replayedTokens: [String] = []
        let replayed = try await withCassette(
            "examples", in: folder, mode: .replay, recordingThrough: MockTransport(stubs: [])
        ) { cassette in try await Self.tour(url, transport: cassette, issued: &replayedTokens) }
        #expect(replayed == recorded)
        #expect(recorded.count >= 10)

        let text = try String(contentsOf: folder.appending(path: "examples.har"), encoding: .utf8)
        for secret in [
            DemoCredentials.shortenerAPIKey, DemoCredentials.githubToken, DemoCredentials.loginPassword,
            "correct%20horse", "correct+horse",
        ] + issued {
            #expect(!text.contains(secret), "the cassette holds \(secret)")
        }
        #expect(issued.count == 2, "the login issued a token and a refresh token")
        #expect(text.contains("<redacted:1>"))
        // No times: every entry starts at the epoch and takes no time, and no Date field is kept.
        #expect(text.components(separatedBy: "\"startedDateTime\" : \"1970-01-01T00:00:00.000Z\"").count == 10)
        #expect(!text.lowercased().contains("\"date\""))
        try Self.expectValidHAR([folder.appending(path: "examples.har")])
    }

    /// Each of `files` passes `scripts/har/validate.py`: the HAR 1.2 JSON Schema (transcribed from the specification) and
    /// haralyzer, a HAR reader from PyPI. Skipped where Python lacks jsonschema or haralyzer, except on CI.
    static func expectValidHAR(_ files: [URL]) throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(filePath: "/usr/bin/env")
            process.arguments = ["python3"] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        let available = (try? python(["-c", "import jsonschema, haralyzer"]).status) == 0
        guard available || ProcessInfo.processInfo.environment["CI"] != nil else { return }
        let result = try python(
            [
                root.appending(path: "scripts/har/validate.py").path(percentEncoded: false)
            ] + files.map { $0.path(percentEncoded: false) })
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aMissNamesTheRequestAndTheNearestRecordedOne() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try await TestServers.testServerURL()
        try await withCassette("miss", in: folder, mode: .record, recordingThrough: DefaultTransport.make()) {
            cassette in
            _ = try await APIClient(baseURL: base, transport: cassette).send(
                APIRequest<Data>.get("/users/octocat", query: ["key": "k-1a2b3c4d"]))
        }
        let error = await #expect(throws: APIError.self) {
            try await withCassette("miss", in: folder, mode: .replay, recordingThrough: MockTransport(stubs: [])) {
                cassette in
                _ = try await APIClient(baseURL: base, transport: cassette).send(
                    APIRequest<Data>.get("/users/octocot", query: ["key": "k-1a2b3c4d"]))
            }
        }
        // What the documentation says a miss is: a transport failure whose underlying error is the miss.
        #expect(error?.kind == .transport)
        #expect(error?.underlyingError is CassetteMiss)
        let message = error?.description ?? ""
        #expect(message.contains("no recorded exchange for GET") && message.contains("/users/octocot"), "\(message)")
        #expect(message.contains("nearest recorded one is GET") && message.contains("/users/octocat"), "\(message)")
        // One marker per secret value, wherever the message shows the URL.
        #expect(message.contains("octocot?key=<redacted> ") && message.contains("octocat?key=<redacted>"), "\(message)")
        #expect(!message.contains("<redacted><redacted>") && !message.contains("k-1a2b3c4d"), "\(message)")
    }

    /// Recording the same exchanges twice, sent in a different order at once, writes the same bytes (the
    /// network here is a mock, so that only the recorder could differ); replay ignores query order and, when
    /// asked, the origin.
    @Test func aCassetteIsDeterministicAndIgnoresQueryOrderAndOriginWhenAsked() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let network = MockTransport(stubs: [
            .init(.get, "/a", json: #"{"a":1}"#), .init(.get, "/b", json: #"{"b":2}"#),
            .init(.get, "/c", json: #"{"c":3}"#),
        ])
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        var files: [String] = []
        for order in [["/a", "/b", "/c"], ["/c", "/a", "/b"]] {
            let name = "same-\(files.count)"
            try await withCassette(name, in: folder, mode: .record, recordingThrough: network) { cassette in
                let client = APIClient(baseURL: base, transport: cassette)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for path in order {
                        group.addTask {
                            _ = try await client.send(
                                APIRequest<Data>.get(RoutePath(encoded: path), query: ["x": 1, "y": 2]))
                        }
                    }
                    try await group.waitForAll()
                }
            }
            files.append(try String(contentsOf: folder.appending(path: "\(name).har"), encoding: .utf8))
        }
        #expect(files[0] == files[1])
        let other = try #require(URL(string: "http://api.example.invalid"))
        try await withCassette(
            "same-0", in: folder, mode: .replay, recordingThrough: network, matching: .init(origin: false)
        ) { cassette in
            let client = APIClient(baseURL: other, transport: cassette)
            let data = try await client.send(APIRequest<Data>.get("/b", query: ["y": 2, "x": 1]))
            #expect(String(decoding: data, as: UTF8.self) == #"{"b":2}"#)
        }
    }

    /// A recorded cookie keeps its name and attributes with its value redacted, so a replay stores it and sends
    /// it back (a future `Expires` dropped, a deletion kept one); each secret has one name in the whole file,
    /// which a replay hands out and matches again when sent back in a path; query items are written decoded,
    /// JSON request bodies with sorted keys, the recorded origin as asked.
    @Test func cookiesTokensAndOriginsSurviveRedactionAndReplay() async throws {
        struct Session: Decodable, Sendable { let token: String }
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var loginFields: HTTPFields = [.contentType: "application/json"]
        loginFields.append(
            HTTPField(
                name: .setCookie,
                value: "session=s3cr3t-cookie-value; Path=/; Expires=Wed, 01 Jan 2098 00:00:00 GMT; HttpOnly"))
        loginFields.append(HTTPField(name: .setCookie, value: "old=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"))
        let network = MockTransport(stubs: [
            .init(
                .post, "/login", headerFields: loginFields, body: Data(#"{"token":"tok-7c1e9a","user":"ada"}"#.utf8)),
            .init(.get, "/sessions/tok-7c1e9a", json: #"{"open":true}"#),
            .init(.get, "/search", json: #"{"hits":0}"#),
        ])
        let base = try #require(URL(string: "http://127.0.0.1:9"))
        let origin = try #require(URL(string: "http://api.test"))
        func run(_ mode: CassetteTransport.Mode, base: URL) async throws -> CookieJar {
            let jar = CookieJar()
            try await withCassette("cookies", in: folder, mode: mode, recordingThrough: network, writtenOrigin: origin)
            {
                cassette in
                let client = APIClient(baseURL: base, transport: cassette) { $0.cookieJar = jar }
                let session = try await client.send(
                    APIRequest<Session>.post("/login", body: .json(["zeta": 1, "alpha": 2, "mid": 3])))
                _ = try await client.send(APIRequest<Data>.get("/sessions/\(session.token)"))
                _ = try await client.send(APIRequest<Data>.get("/search", query: ["q": "a b/ü"]))
                if mode == .replay { #expect(cassette.unplayed.isEmpty) }
            }
            return jar
        }
        _ = try await run(.record, base: base)
        let text = try String(contentsOf: folder.appending(path: "cookies.har"), encoding: .utf8)
        // One name per secret: the cookie is `<redacted:1>` wherever it appears, the token `<redacted:2>`.
        #expect(text.contains("session=<redacted:1>; Path=/; HttpOnly"), "\(text)")
        #expect(text.contains("old=; Max-Age=0"), "\(text)")
        #expect(text.contains(#""value" : "session=<redacted:1>""#), "the search sent it, redacted: \(text)")
        #expect(text.contains(#""text" : "{\"alpha\":2,\"mid\":3,\"zeta\":1}""#), "\(text)")
        #expect(text.contains(#""text" : "{\"token\":\"<redacted:2>\",\"user\":\"ada\"}""#), "\(text)")
        #expect(text.contains("http://api.test/sessions/<redacted:2>") && !text.contains("127.0.0.1"), "\(text)")
        for secret in ["s3cr3t-cookie-value", "tok-7c1e9a", "2098"] { #expect(!text.contains(secret), "\(secret)") }
        #expect(text.contains(#""value" : "a b/ü""#), "\(text)")
        let replayed = try await run(.replay, base: origin)
        // The replaying client never sent the cookie, so it gets the cookie's name in the file.
        #expect(replayed.cookies.map { "\($0.name)=\($0.value)" } == ["session=<redacted:1>"])
        try Self.expectValidHAR([folder.appending(path: "cookies.har")])
    }

    /// The written origin replaces the base URL's own only where it is a whole origin, in every spelling;
    /// `recordMissing` with an origin matches what an earlier run wrote; a secret the client itself put in a
    /// JSON body matches on replay where it comes back in a path; `Expires` is kept when unreadable and dropped
    /// beside `Max-Age`.
    @Test func originsSecretMembersAndCookieDatesAreWrittenSoTheyReplay() async throws {
        #expect(
            CassetteWriter.replacingOrigin(
                "http://localhost", with: "http://demo.invalid",
                in: "http://localhost/x http://localhost:8081/y http://localhost.example/z (http://localhost)")
                == "http://demo.invalid/x http://localhost:8081/y http://localhost.example/z (http://demo.invalid)")
        // An authority standing alone (`Host`, an echoed `host:port`) is rewritten whole, never inside another.
        #expect(
            CassetteWriter.replacingOrigin(
                "127.0.0.1:8081", with: "demo.invalid", in: #"{"Host": "127.0.0.1:8081", "a": "10.127.0.0.1:8081"}"#)
                == #"{"Host": "demo.invalid", "a": "10.127.0.0.1:8081"}"#)
        #expect(
            CassetteWriter.redactingCookieValues(
                "a=1; Max-Age=60; Expires=Wed, 01 Jan 2098 00:00:00 GMT", attributes: true)
                == "a=<redacted>; Max-Age=60")
        #expect(
            CassetteWriter.redactingCookieValues("a=1; Expires=someday", attributes: true)
                == "a=<redacted>; Expires=someday")
        #expect(
            CassetteWriter.redactingCookieValues("a=1; expires=Sun Nov  6 08:49:37 1994", attributes: true)
                == "a=<redacted>; Max-Age=0")

        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let counting = CountingTransport(
            MockTransport { request in
                let body =
                    request.path == "/links"
                    ? #"{"next":"http://127.0.0.1:9/page/2","other":"http://127.0.0.1:90/"}"# : "{}"
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(body.utf8))
            })
        let origin = try #require(URL(string: "http://api.test"))
        func run(_ mode: CassetteTransport.Mode, base: String, paths: [String]) async throws {
            let url = try #require(URL(string: base))
            try await withCassette("edges", in: folder, mode: mode, recordingThrough: counting, writtenOrigin: origin) {
                cassette in
                let client = APIClient(baseURL: url, transport: cassette)
                _ = try await client.send(
                    APIRequest<Data>.post("/sessions", body: .json(["token": "s3ss10n-client-made"])))
                _ = try await client.send(APIRequest<Data>.delete("/sessions/s3ss10n-client-made"))
                for path in paths { _ = try await client.send(APIRequest<Data>.get(RoutePath(encoded: path))) }
                if mode == .replay { #expect(cassette.unplayed.isEmpty) }
            }
        }
        try await run(.record, base: "http://127.0.0.1:9", paths: ["/links"])
        #expect(counting.count == 3)
        try await run(.recordMissing, base: "http://127.0.0.1:10", paths: ["/links", "/more"])
        #expect(counting.count == 4, "only /more was new")
        let text = try String(contentsOf: folder.appending(path: "edges.har"), encoding: .utf8)
        #expect(!text.contains("s3ss10n-client-made"))
        #expect(text.contains("http://api.test/page/2") && text.contains("http://127.0.0.1:90/"), "\(text)")
        #expect(!text.contains("127.0.0.1:9/") && !text.contains("127.0.0.1:10"), "\(text)")
        try await run(.replay, base: "http://api.test", paths: ["/links", "/more"])
    }

    @Test func recordMissingAddsOnlyWhatIsNew() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try await TestServers.testServerURL()
        let counting = CountingTransport(DefaultTransport.make())
        for _ in 0..<2 {
            try await withCassette("grow", in: folder, mode: .recordMissing, recordingThrough: counting) { cassette in
                _ = try await APIClient(baseURL: base, transport: cassette).send(APIRequest<Data>.get("/users/octocat"))
            }
        }
        #expect(counting.count == 1)
        // What was written keeps its names; a new secret, in an entry that sorts first, is numbered after them.
        let file = folder.appending(path: "grow.har")
        let later: [(RoutePath, String)] = [("/echo/z", "tok-second-1"), ("/echo/a", "tok-first-22")]
        for (path, token) in later {
            try await withCassette("grow", in: folder, mode: .recordMissing, recordingThrough: counting) { cassette in
                _ = try await APIClient(baseURL: base, transport: cassette).send(
                    APIRequest<Data>.get(path, headers: [.authorization: "Bearer \(token)"]))
            }
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("Bearer <redacted:1>") && text.contains("Bearer <redacted:2>"), "\(text)")
        let first = try #require(text.range(of: "/echo/a"))
        let second = try #require(text.range(of: "/echo/z"))
        #expect(first.lowerBound < second.lowerBound, "entries are sorted by request")
        #expect(text[first.lowerBound..<second.lowerBound].contains("Bearer <redacted:2>"), "the later secret: \(text)")
        #expect(text[second.lowerBound...].contains("Bearer <redacted:1>"), "the earlier one keeps its name")
    }

    /// What a placeholder stood for is read from text that otherwise reads as recorded, in one pass: a body
    /// that differs elsewhere says nothing, and a large one that doesn't match is given up at once.
    @Test func placeholdersAreReadOnlyFromTextThatOtherwiseMatches() {
        #expect(
            Placeholder.bindings(recorded: "/users/<redacted:2>/keys", live: "/users/ada%20l/keys", context: .path)
                == [2: "ada l"])
        #expect(
            Placeholder.bindings(
                recorded: #"{"a":"<redacted:1>","b":"<redacted:3>"}"#, live: #"{"a":"x\"y","b":"z"}"#, context: .json)
                == [1: "x\"y", 3: "z"])
        #expect(
            Placeholder.bindings(recorded: #"{"a":"<redacted:1>","t":1}"#, live: #"{"a":"x","t":2}"#, context: .json)
                .isEmpty)
        let many = "[" + (1...2000).map { "\"<redacted:\($0)>\"" }.joined(separator: ",") + "]"
        // The same but for one separator: every piece is searched for once, and the match fails.
        var values = (1...2000).map { "\"v\($0)\"" }
        values[999] += ";"
        let live = "[" + values.joined(separator: ",") + "]"
        #expect(Placeholder.bindings(recorded: many, live: live, context: .json).isEmpty)
        #expect(
            Placeholder.restoring([1: "tok"], in: "Bearer <redacted:1> <redacted:2>", context: .field)
                == "Bearer tok <redacted:2>")
    }
}

/// A transport that counts what it sends through another.
final class CountingTransport: ClientTransport, Sendable {
    private let base: any ClientTransport
    private let sent = Mutex(0)

    init(_ base: any ClientTransport) { self.base = base }

    var count: Int { sent.withLock { $0 } }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        sent.withLock { $0 += 1 }
        return try await base.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}
