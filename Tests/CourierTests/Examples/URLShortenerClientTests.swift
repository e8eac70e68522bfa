import Courier
import CourierDemoServer
import CourierExamples
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct URLShortenerClientTests {
    func shortener(
        _ base: URL, _ transport: any ClientTransport, key: String = DemoCredentials.shortenerAPIKey
    ) -> URLShortener {
        URLShortener(baseURL: base.appending(path: "urlshortener/v1"), apiKey: Secret(key), transport: transport)
    }

    @Test(arguments: ExampleBackend.active) func shortenAndLookUp(_ backend: ExampleBackend) async throws {
        try await backend.run { base, transport in
            let shortener = shortener(base, transport)
            let short = try await shortener.shorten("https://swift.org/documentation/?a=1&b=2")
            #expect(short.kind == "urlshortener#url")
            #expect(short.id.hasPrefix("http://goo.gl/"))
            let found = try await shortener.lookup(short.id)
            #expect(found.longUrl == "https://swift.org/documentation/?a=1&b=2")
            #expect(found.status == "OK")
        }
    }

    @Test(arguments: ExampleBackend.active) func aWrongKeyIsGooglesOwnErrorWithTheKeyRedacted(
        _ backend: ExampleBackend
    ) async throws {
        try await backend.run { base, transport in
            let error = await #expect(throws: APIError.self) {
                try await shortener(base, transport, key: "WRONG-KEY-0001").shorten("https://swift.org")
            }
            #expect(error?.kind == .apiError)
            #expect(error?.errorBody(as: GoogleAPIError.self)?.reasons == ["keyInvalid"])
            #expect(error?.description.contains("WRONG-KEY-0001") == false)
            #expect(error?.description.contains("key=<redacted>") == true)
        }
    }

    @Test(arguments: ExampleBackend.active) func unknownShortURLsAndInvalidLongURLsAreGoogleErrors(
        _ backend: ExampleBackend
    ) async throws {
        try await backend.run { base, transport in
            let missing = await #expect(throws: APIError.self) {
                try await shortener(base, transport).lookup("http://goo.gl/nope00")
            }
            #expect(missing?.status == .notFound)
            #expect(missing?.errorBody(as: GoogleAPIError.self)?.reasons == ["notFound"])
        }
    }

    @Test func anInvalidURLIsRefusedBeforeAnyRequest() async throws {
        let mock = MockTransport(stubs: [])
        let shortener = URLShortener(
            baseURL: try #require(URL(string: "https://example.com/urlshortener/v1")), apiKey: Secret("k"),
            transport: mock)
        for bad in ["not a url", "ftp://example.com/file", "/relative/path", "https://"] {
            let error = await #expect(throws: APIError.self) { try await shortener.shorten(bad) }
            #expect(error?.kind == .invalidRequest)
        }
        #expect(mock.requests.isEmpty)
    }

    @Test(arguments: ExampleBackend.active) func theKeyComesFromSecrets(_ backend: ExampleBackend) async throws {
        try await backend.run { base, transport in
            let secrets = Secrets([.environment(["GOOGLE_API_KEY": DemoCredentials.shortenerAPIKey])])
            let shortener = try URLShortener(
                baseURL: base.appending(path: "urlshortener/v1"), secrets: secrets, transport: transport)
            #expect(try await shortener.shorten("https://example.org").id.hasPrefix("http://goo.gl/"))
            #expect(throws: SecretsError.self) {
                try URLShortener(baseURL: base, secrets: Secrets([.environment([:])]))
            }
        }
    }
}
