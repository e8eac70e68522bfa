import Courier
import Foundation
import HTTPTypes
import Logging
import Testing

/// What the logging middleware writes, captured in memory: everything useful, no secret.
@Suite(.timeLimit(.minutes(1))) struct LoggingTests {
    static let bearer = "BEARER-SECRET-7f3a"
    static let password = "PASSWORD-SECRET-91"
    static let cookie = "COOKIE-SECRET-55c"
    static let apiKey = "APIKEY-SECRET-0d2"

    /// Logging sees the credentials when it runs after (inside) the middleware that adds them.
    @Test func secretsNeverAppearInLogsOrCURL() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let base = try await TestServers.testServerURL()
        let client = APIClient(
            baseURL: base,
            middlewares: [
                .apiKey(Self.apiKey, queryItem: "api_key"), .bearerToken(Self.bearer), .logging(logger, logsCURL: true),
            ]
        ) { $0.defaultHeaders[.cookie] = "session=\(Self.cookie)" }
        let form: Query = ["email": "ada@example.com", "password": Self.password]
        _ = try await client.send(APIRequest<Data>.post("/echo/login", body: .form(form)))
        _ = try? await client.send(APIRequest<Data>.get("/status/404"))

        let basic = APIClient(
            baseURL: base,
            middlewares: [.basicAuth(username: "ada", password: Self.password), .logging(logger, logsCURL: true)])
        _ = try await basic.send(APIRequest<Data>.get("/echo/basic"))

        let text = store.text
        for secret in [Self.bearer, Self.password, Self.cookie, Self.apiKey] {
            #expect(!text.contains(secret), "\(secret) leaked into the logs:\n\(text)")
        }
        let sent = try #require(store.all.first { $0.message == "Sending request" })
        #expect("\(sent.metadata["courier-method"] ?? "")" == "POST")
        #expect("\(sent.metadata["courier-url"] ?? "")" == "\(base.absoluteString)/echo/login?api_key=<redacted>")
        #expect(text.contains("courier-status=200 OK"))
        #expect(text.contains("curl -X POST"))
        #expect(text.contains("password=<redacted>"))
        #expect(text.contains("email=ada%40example.com"))
        #expect(text.contains("'Authorization: <redacted>'"))
        // A 4xx is the caller's to handle: by default it is logged at .debug, like every other message.
        let notFound = try #require(store.all.first { "\($0.metadata["courier-status"] ?? "")" == "404 Not Found" })
        #expect(notFound.message == "Received response")
        #expect(store.all.allSatisfy { $0.level == .debug })
        #expect(Set(store.all.compactMap { $0.metadata["courier-request-id"].map { "\($0)" } }).count == 3)
        // Messages are constant; every value is metadata.
        #expect(Set(store.all.map(\.message)) == ["Sending request", "Received response"])
    }

    /// A name added to the client's redaction is hidden by a logging middleware left at its default.
    @Test func theClientsOwnSecretNamesAreHiddenToo() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let session = "SESSION-SECRET-4e1"
        let sessionField = try #require(HTTPField.Name("X-Session"))
        let client = APIClient(
            baseURL: try await TestServers.testServerURL(), middlewares: [.logging(logger, logsCURL: true)]
        ) {
            $0.redaction.queryNames.insert("session")
            $0.redaction.headerNames.insert(sessionField)
        }
        var request = APIRequest<Data>.get("/echo/anything", query: ["session": session, "page": 2])
        request.headers[sessionField] = session
        _ = try await client.send(request)
        #expect(!store.text.contains(session), "the session leaked into the logs:\n\(store.text)")
        #expect(store.text.contains("session=<redacted>&page=2"))
        #expect(store.text.contains("'X-Session: <redacted>'"))
    }

    @Test func failuresAreLoggedAtTheChosenLevelAndScrubbed() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let client = APIClient(
            baseURL: base, middlewares: [.logging(logger, failureLevel: .info), .apiKey(Self.apiKey, queryItem: "key")])
        await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
        let failure = try #require(store.all.first { $0.message == "Request failed" })
        #expect(failure.level == .info)
        #expect("\(failure.metadata["courier-error"] ?? "")" == "connection refused")
        // Every message names its request, so a failure logged alone still says which one failed (the
        // logging middleware is outermost here, so it sees the request before the key is added).
        #expect("\(failure.metadata["courier-url"] ?? "")" == "http://127.0.0.1:1/x")
        #expect("\(failure.metadata["courier-method"] ?? "")" == "GET")
        #expect(!store.text.contains(Self.apiKey))
    }

    @Test func theCallersLoggerMetadataIsKeptOnEveryMessage() async throws {
        let (base, store) = RecordingLogHandler.logger()
        var logger = base
        logger[metadataKey: "tenant"] = "acme"
        let client = APIClient(baseURL: try await TestServers.testServerURL(), middlewares: [.logging(logger)])
        _ = try await client.send(APIRequest<String>.get("/text"))
        #expect(store.all.count == 2)
        #expect(store.all.allSatisfy { "\($0.metadata["tenant"] ?? "")" == "acme" })
    }

    @Test func nothingIsFormattedWhenTheLoggerIsQuiet() async throws {
        let (logger, store) = RecordingLogHandler.logger(level: .error)
        let client = APIClient(baseURL: try await TestServers.testServerURL(), middlewares: [.logging(logger)])
        _ = try await client.send(APIRequest<String>.get("/text"))
        #expect(store.all.isEmpty)
    }

    @Test func cURLRenderingOnItsOwn() async throws {
        let client = APIClient(baseURL: exampleBaseURL) {
            $0.defaultQuery = ["key": Self.apiKey]
            $0.defaultHeaders[.authorization] = "Bearer \(Self.bearer)"
        }
        struct Login: Encodable, Sendable {
            let user: String
            let password: String
        }
        let curl = try await client.cURLDescription(
            for: APIRequest<Void>.post("/it's", body: .json(Login(user: "ada", password: Self.password))))
        #expect(curl.hasPrefix("curl -X POST 'https://api.example.com/v1/it'\\''s?key=<redacted>'"))
        #expect(curl.contains("'Authorization: <redacted>'"))
        #expect(curl.contains(#""password":"<redacted>""#))
        #expect(curl.contains(#""user":"ada""#))
        for secret in [Self.bearer, Self.password, Self.apiKey] { #expect(!curl.contains(secret)) }
    }
}
