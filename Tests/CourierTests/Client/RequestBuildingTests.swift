import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// How endpoints become requests, checked on what a mock transport receives.
@Suite struct RequestBuildingTests {
    let mock = MockTransport { _ in (HTTPResponse(status: .noContent), Data()) }

    func client(_ configure: (inout APIClient.Configuration) -> Void = { _ in }) -> APIClient {
        APIClient(baseURL: exampleBaseURL, transport: mock, configure: configure)
    }

    func lastRequest() throws -> MockTransport.RecordedRequest {
        try #require(mock.requests.last, "the transport received no request")
    }

    @Test func defaultQueryFollowsTheRequestsOwnAndLosesToIt() async throws {
        let client = client { $0.defaultQuery = ["format": "json", "key": "k1", "page": "1"] }
        try await client.send(APIRequest<Void>.get("/photos", query: ["method": "x y", "page": 2]))
        #expect(try lastRequest().query == "method=x%20y&page=2&format=json&key=k1")
        #expect(try lastRequest().path == "/photos")
        #expect(try lastRequest().baseURL == exampleBaseURL)
    }

    @Test func requestHeadersReplaceDefaultsOfTheSameName() async throws {
        let client = client {
            $0.defaultHeaders = [.accept: "application/json", .userAgent: "Courier-tests"]
        }
        try await client.send(APIRequest<Void>.get("/a", headers: [.accept: "text/plain"]))
        let fields = try lastRequest().headerFields
        #expect(fields[values: .accept] == ["text/plain"])
        #expect(fields[.userAgent] == "Courier-tests")
    }

    @Test func aDefaultUserAgentNamesCourierAndCanBeReplacedOrRemoved() async throws {
        try await client().send(APIRequest<Void>.get("/a"))
        let sent = try #require(try lastRequest().headerFields[.userAgent])
        #expect(sent == APIClient.Configuration.defaultUserAgent)
        #expect(sent.hasPrefix("Courier/0.2.0 ("), "\(sent)")
        #if os(Linux)
            #expect(sent.contains("(Linux "), "\(sent)")
        #endif

        try await client { $0.defaultHeaders[.userAgent] = "MyApp/1.4" }.send(APIRequest<Void>.get("/b"))
        #expect(try lastRequest().headerFields[values: .userAgent] == ["MyApp/1.4"])
        try await client().send(APIRequest<Void>.get("/c", headers: [.userAgent: "Endpoint/2"]))
        #expect(try lastRequest().headerFields[values: .userAgent] == ["Endpoint/2"])
        try await client { $0.defaultHeaders[.userAgent] = nil }.send(APIRequest<Void>.get("/d"))
        #expect(try lastRequest().headerFields[.userAgent] == nil)
    }

    @Test func jsonBodyUsesTheClientEncoder() async throws {
        struct Note: Encodable, Sendable { let createdAt: Date }
        let client = client { $0.jsonEncoder.dateEncodingStrategy = .secondsSince1970 }
        try await client.send(
            APIRequest<Void>.post("/notes", body: .json(Note(createdAt: Date(timeIntervalSince1970: 5)))))
        #expect(try lastRequest().bodyText == #"{"createdAt":5}"#)
        #expect(try lastRequest().headerFields[.contentType] == "application/json")
        #expect(try lastRequest().method == .post)
    }

    @Test func formBodyIsWHATWGEncoded() async throws {
        let fields: Query = ["email": "a+b@example.com", "password": "p&ss=word é", "tags": ["x", "y"]]
        try await client().send(APIRequest<Void>.post("/auth/local", body: .form(fields)))
        #expect(try lastRequest().bodyText == "email=a%2Bb%40example.com&password=p%26ss%3Dword+%C3%A9&tags=x&tags=y")
        #expect(try lastRequest().headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func rawTextStreamAndCustomEncoderBodies() async throws {
        try await client().send(APIRequest<Void>.put("/raw", body: .data(Data([1, 2, 3]))))
        #expect(try lastRequest().body == Data([1, 2, 3]))
        #expect(try lastRequest().headerFields[.contentType] == "application/octet-stream")

        try await client().send(APIRequest<Void>.post("/text", body: .text("héllo")))
        #expect(try lastRequest().bodyText == "héllo")
        #expect(try lastRequest().headerFields[.contentType] == "text/plain; charset=utf-8")

        try await client().send(
            APIRequest<Void>.post("/stream", body: .stream("streamed", contentType: "text/x-stream")))
        #expect(try lastRequest().bodyText == "streamed")
        #expect(try lastRequest().headerFields[.contentType] == "text/x-stream")

        struct Reversed: RequestBodyEncoder {
            var contentType: String { "text/reversed" }
            func encode<T: Encodable>(_ value: T) throws -> Data {
                Data(String(String(decoding: try JSONEncoder().encode(value), as: UTF8.self).reversed()).utf8)
            }
        }
        try await client().send(APIRequest<Void>.patch("/custom", body: .encoded([1, 2], using: Reversed())))
        #expect(try lastRequest().bodyText == "]2,1[")
        #expect(try lastRequest().headerFields[.contentType] == "text/reversed")
    }

    @Test func explicitContentTypeWins() async throws {
        let request = APIRequest<Void>.post(
            "/a", headers: [.contentType: "application/vnd.api+json"], body: .json(["a": 1]))
        try await client().send(request)
        #expect(try lastRequest().headerFields[values: .contentType] == ["application/vnd.api+json"])
    }

    @Test func routerEnumsAreSentWithAResponseType() async throws {
        enum Shortener: Route {
            case shorten(String)
            case lookup(String)
            var method: HTTPRequest.Method {
                if case .shorten = self { .post } else { .get }
            }
            var path: RoutePath { "/url" }
            var query: Query {
                if case .lookup(let url) = self { ["shortUrl": "\(url)"] } else { [:] }
            }
            var body: RequestBody {
                if case .shorten(let url) = self { .json(["longUrl": url]) } else { .empty }
            }
        }
        let mock = MockTransport(stubs: [.init(.get, "/url", json: #"{"id":"s"}"#), .init(.post, "/url", json: "{}")])
        let client = APIClient(baseURL: exampleBaseURL, transport: mock)
        struct Short: Decodable, Sendable { let id: String }
        #expect(try await client.send(Shortener.lookup("http://g.co/x"), as: Short.self).id == "s")
        #expect(mock.requests.last?.query == "shortUrl=http%3A%2F%2Fg.co%2Fx")
        try await client.send(Shortener.shorten("https://swift.org"), as: Void.self)
        #expect(mock.requests.last?.bodyText == #"{"longUrl":"https:\/\/swift.org"}"#)
        #expect(mock.requests.last?.operationID == "Shortener")
    }

    @Test(arguments: ["ftp://example.com", "/relative/path", "https://example.com?key=secret123", "mailto:x@y.z"])
    func invalidBaseURLsFailEveryRequestClearly(text: String) async throws {
        let url = try #require(URL(string: text))
        let client = APIClient(baseURL: url, transport: mock)
        let error = await #expect(throws: APIError.self) { try await client.send(GetUser(login: "x")) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.phase == .building)
        #expect(error?.method == .get)
        #expect(error?.description.contains("secret123") == false)
        #expect(mock.requests.isEmpty, "no request may be sent with an invalid base URL")
    }

    @Test func unencodableValuesAreThrownEncodingErrors() async throws {
        struct Bad: Encodable, Sendable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(1, .init(codingPath: [], debugDescription: "cannot encode Bad"))
            }
        }
        let error = await #expect(throws: APIError.self) {
            try await client().send(APIRequest<Void>.post("/bad", body: .json(Bad())))
        }
        #expect(error?.kind == .encoding)
        #expect(error?.description.contains("POST https://api.example.com/v1/bad") == true)
        #expect(error?.description.contains("cannot encode Bad") == true)

        struct NaNQuery: Route {
            var path: RoutePath { "/q" }
            var query: Query { get throws { try QueryEncoder().encode(["ratio": Double.nan]) } }
        }
        let queryError = await #expect(throws: APIError.self) { try await client().send(NaNQuery(), as: Void.self) }
        #expect(queryError?.kind == .encoding)
        #expect(mock.requests.isEmpty)
    }
}
