import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A replay decodes what the recording decoded: an API that echoes requests (httpbin) is recorded through a
/// real transport, then replayed with nothing listening at the written origin, and every decoded value is
/// compared with the live one, field for field. The secrets the client sends come back as they were sent,
/// because the cassette names each distinct secret once and the replaying request says what each name stood
/// for; the structure around them (`Bearer `, a cookie's name, a query item's name) is written as it was.
@Suite(
    .enabled(if: TestServers.httpbinAvailable, "run scripts/test, or set COURIER_HTTPBIN_URL"),
    .timeLimit(.minutes(1)))
struct CassetteFidelityTests {
    /// httpbin's `/anything`.
    struct Anything: Codable, Equatable, Sendable {
        let args: [String: String]
        let headers: [String: String]
        let json: [String: String]?
        let data: String
        let method: String
        let url: String
    }

    struct Headers: Codable, Equatable, Sendable { let headers: [String: String] }
    struct BasicAuth: Codable, Equatable, Sendable {
        let authenticated: Bool
        let user: String
    }
    struct Cookies: Codable, Equatable, Sendable { let cookies: [String: String] }

    /// Everything the tour decoded.
    struct Decoded: Codable, Equatable, Sendable {
        var bearer: Anything
        var apiKeyInAHeader: Headers
        var basicAuth: BasicAuth
        var cookies: Cookies
        var passwordInABody: Anything
    }

    static let token = "tok-3f9a2c7e51"
    static let apiKey = "key-8d41b6e0aa"
    static let password = "pw-51c2e9f7d3"
    static let cookie = "ck-0a7d3e91f4"
    static var secrets: [String] { [token, apiKey, password, cookie] }

    /// Bearer token and API key in one call, the same key in a header of another, Basic credentials whose
    /// password is also in the path, a cookie a redirect sets, a password in a JSON body.
    static func tour(base: URL, transport: any ClientTransport) async throws -> Decoded {
        let client = APIClient(baseURL: base, transport: transport) { $0.cookieJar = CookieJar() }
        let credentials = Data("ada:\(password)".utf8).base64EncodedString()
        return Decoded(
            bearer: try await client.send(
                APIRequest<Anything>.get(
                    "/anything", query: ["api_key": apiKey, "q": "kept"],
                    headers: [.authorization: "Bearer \(token)"])),
            apiKeyInAHeader: try await client.send(
                APIRequest<Headers>.get("/headers", headers: [.xAPIKey: apiKey])),
            basicAuth: try await client.send(
                APIRequest<BasicAuth>.get(
                    "/basic-auth/ada/\(password)", headers: [.authorization: "Basic \(credentials)"])),
            cookies: try await client.send(
                APIRequest<Cookies>.get("/cookies/set", query: ["token": cookie])),
            passwordInABody: try await client.send(
                APIRequest<Anything>.post("/anything", body: .json(["user": "ada", "password": password]))))
    }

    @Test(arguments: [TransportUnderTest.urlSession, .httpClient])
    func aReplayDecodesWhatTheRecordingDecoded(transport: TransportUnderTest) async throws {
        let live = try #require(TestServers.httpbinURL, "COURIER_HTTPBIN_URL is not set")
        let written = try #require(URL(string: "http://httpbin.invalid"))
        let folder = FileManager.default.temporaryDirectory.appending(path: "courier-fidelity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let recorded = try await withCassette(
            "httpbin", in: folder, mode: .record, recordingThrough: transport.make(), writtenOrigin: written
        ) { try await Self.tour(base: live, transport: $0) }
        // Nothing listens at the written origin: only the cassette can answer.
        let replayed = try await withCassette(
            "httpbin", in: folder, mode: .replay, recordingThrough: MockTransport(stubs: []), writtenOrigin: written
        ) { cassette in
            let decoded = try await Self.tour(base: written, transport: cassette)
            #expect(cassette.unplayed.isEmpty, "recorded but never requested: \(cassette.unplayed)")
            return decoded
        }

        // What the live server said, with its own origin where the cassette writes the written one.
        let liveAuthority = try #require(live.host()).appending(live.port.map { ":\($0)" } ?? "")
        let expected = try JSONDecoder().decode(
            Decoded.self,
            from: Data(
                String(decoding: try JSONEncoder().encode(recorded), as: UTF8.self)
                    .replacingOccurrences(of: liveAuthority, with: "httpbin.invalid").utf8))
        #expect(replayed.bearer == expected.bearer)
        #expect(replayed.apiKeyInAHeader == expected.apiKeyInAHeader)
        #expect(replayed.basicAuth == expected.basicAuth)
        #expect(replayed.cookies == expected.cookies)
        #expect(replayed.passwordInABody == expected.passwordInABody)
        // The live values are what was sent, so the comparison compares secrets too.
        #expect(recorded.bearer.headers["Authorization"] == "Bearer \(Self.token)")
        #expect(recorded.cookies.cookies == ["token": Self.cookie])
        #expect(recorded.passwordInABody.json?["password"] == Self.password)

        let text = try String(contentsOf: folder.appending(path: "httpbin.har"), encoding: .utf8)
        for secret in Self.secrets { #expect(!text.contains(secret), "the cassette holds \(secret)") }
        #expect(!text.contains(Data("ada:\(Self.password)".utf8).base64EncodedString()))
        #expect(!text.contains(liveAuthority), "the live origin is written in place of the written one")
        // The structure stays; each distinct secret has one name, whatever its spelling or place.
        #expect(text.contains("Bearer <redacted:"))
        #expect(text.contains("Basic <redacted:"))
        #expect(text.contains("token=<redacted:"))
        #expect(text.contains("api_key=<redacted:"))
        let names = Set(text.matches(of: #/<redacted:[0-9]+>/#).map { String($0.output) })
        #expect(names.count == 5, "token, key, password, Basic credentials, cookie: \(names.sorted())")
        #expect(!text.contains("<redacted>"), "every secret has its name")
        // Recording asks for bodies it can redact, and writes the requests as sent. (URLSession on Linux asks
        // for compression by itself, and hands the body over decoded.)
        #expect(!text.contains(#""name" : "Accept-Encoding""#))
        if transport == .httpClient { #expect(recorded.apiKeyInAHeader.headers["Accept-Encoding"] == nil) }
    }
}
