import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Validation, decoding and error mapping, on responses from a mock transport.
@Suite struct ResponseHandlingTests {
    func client(
        _ stubs: [MockTransport.Stub], middlewares: [any ClientMiddleware] = [],
        _ configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) -> APIClient {
        APIClient(baseURL: exampleBaseURL, transport: MockTransport(stubs: stubs), middlewares: middlewares) {
            $0.defaultQuery = ["key": "SECRET-KEY-123"]
            configure(&$0)
        }
    }

    @Test func decodesSuccessAndKeepsTheResponse() async throws {
        let client = client([.init(.get, "/users/octocat", json: #"{"login":"octocat","id":1}"#)])
        let response = try await client.response(GetUser(login: "octocat"))
        #expect(response.value == User(login: "octocat", id: 1))
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        #expect(response.request.path == "/users/octocat?key=SECRET-KEY-123")
    }

    @Test func dataStringAndVoidResponses() async throws {
        let client = client([
            .init(.get, "/bytes", body: Data([0, 255])), .init(.get, "/text", body: Data("héllo".utf8)),
            .init(.get, "/nothing", status: .noContent),
        ])
        #expect(try await client.send(APIRequest<Data>.get("/bytes")) == Data([0, 255]))
        #expect(try await client.send(APIRequest<String>.get("/text")) == "héllo")
        try await client.send(APIRequest<Void>.get("/nothing"))
    }

    @Test func emptyBodyForADecodableIsADecodingError() async throws {
        let client = client([.init(.get, "/users/x")])
        let error = await #expect(throws: APIError.self) { try await client.send(GetUser(login: "x")) }
        #expect(error?.kind == .decoding)
        #expect(error?.description.contains("empty") == true)
    }

    @Test func decodingErrorsNameTheTypeThePathAndShowASnippet() async throws {
        let client = client([.init(.get, "/users/x", json: #"{"login":"x","id":"seven"}"#)])
        let error = await #expect(throws: APIError.self) { try await client.send(GetUser(login: "x")) }
        #expect(error?.kind == .decoding)
        #expect(error?.phase == .decoding)
        #expect(error?.underlyingError is DecodingError)
        let text = error?.description ?? ""
        #expect(text.contains("User"))
        #expect(text.contains("at id"))
        #expect(text.contains(#""id":"seven""#), "the body snippet is shown: \(text)")
        #expect(!text.contains("SECRET-KEY-123"))
    }

    @Test func errorBodyIsDecodedIntoAnAPIError() async throws {
        let client = client([.init(.get, "/users/nobody", status: .notFound, json: #"{"message":"Not Found"}"#)]) {
            $0.errorBody = MessageError.self
        }
        let error = await #expect(throws: APIError.self) { try await client.send(GetUser(login: "nobody")) }
        #expect(error?.kind == .apiError)
        #expect(error?.status == .notFound)
        #expect(error?.errorBody(as: MessageError.self)?.message == "Not Found")
        #expect(
            error?.description
                == "GET https://api.example.com/v1/users/nobody?key=<redacted> failed: 404 Not Found — API error: Not Found"
        )
    }

    @Test func undecodableErrorBodyIsAnUnacceptableStatusWithASnippet() async throws {
        let html = "<html><body><h1>500 Internal Server Error</h1></body></html>"
        let client = client([.init(.get, "/boom", status: .internalServerError, body: Data(html.utf8))]) {
            $0.errorBody = MessageError.self
        }
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/boom")) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.bodySnippet == html)
        #expect(error?.errorBody == nil)
    }

    @Test func acceptableStatusesCanBeWidenedPerEndpoint() async throws {
        struct Cached: Endpoint {
            typealias Response = Void
            var path: RoutePath { "/cached" }
            var acceptableStatuses: AcceptableStatuses? { [200..<300, 304..<305] }
        }
        let client = client([.init(.get, "/cached", status: .notModified)])
        try await client.send(Cached())
        await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/cached")) }
    }

    @Test func declaredOversizeBodyIsRefusedBeforeReading() async throws {
        let big = Data(count: 2048)
        let client = client([.init(.get, "/big", headerFields: [.contentType: "application/octet-stream"], body: big)])
        {
            $0.maxBodySize = 1024
        }
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Data>.get("/big")) }
        #expect(error?.kind == .bodyTooLarge)
        #expect(error?.phase == .receiving)
        #expect(error?.description.contains("declares 2048 bytes, more than the 1 KiB limit") == true)
    }

    @Test func secretsAreScrubbedFromEveryPartOfTheDescription() async throws {
        struct Leaky: Error, CustomStringConvertible {
            var description: String { "could not reach /v1/x?key=SECRET-KEY-123 with Bearer TOKEN-abc-999" }
        }
        let client = APIClient(
            baseURL: exampleBaseURL, transport: MockTransport { _ in throw Leaky() }
        ) {
            $0.defaultQuery = ["key": "SECRET-KEY-123"]
            $0.defaultHeaders = [.authorization: "Bearer TOKEN-abc-999"]
        }
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
        #expect(error?.kind == .transport)
        let text = error?.description ?? ""
        #expect(!text.contains("SECRET-KEY-123"), "\(text)")
        #expect(!text.contains("TOKEN-abc-999"), "\(text)")
        #expect(text.contains("GET https://api.example.com/v1/x?key=<redacted>"))
    }

    @Test func middlewareFailuresAreToldApartFromTransportFailures() async throws {
        struct Refuse: ClientMiddleware {
            struct Refused: Error {}
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) { throw Refused() }
        }
        struct PassThrough: ClientMiddleware {
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                var request = request
                request.headerFields[.userAgent] = "pass-through"
                return try await next(request, body, baseURL)
            }
        }
        let refused = client([], middlewares: [PassThrough(), Refuse()])
        await #expect(throws: APIError.self) { try await refused.send(APIRequest<Void>.get("/x")) }
        let refusedError = await #expect(throws: APIError.self) { try await refused.send(APIRequest<Void>.get("/x")) }
        #expect(refusedError?.kind == .middleware)

        let mock = MockTransport(stubs: [])
        let unmatched = APIClient(baseURL: exampleBaseURL, transport: mock, middlewares: [PassThrough()])
        let transportError = await #expect(throws: APIError.self) {
            try await unmatched.send(APIRequest<Void>.get("/y"))
        }
        #expect(transportError?.kind == .transport)
        #expect(transportError?.description.contains("MockTransport: no stub for GET /y") == true)
        #expect(mock.requests.first?.headerFields[.userAgent] == "pass-through")
    }

    @Test func cancellationBeforeSendingIsCancelled() async throws {
        let client = client([.init(.get, "/users/x", json: #"{"login":"x","id":1}"#)])
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }  // cancelled before the call starts
            return try await client.send(GetUser(login: "x"))
        }
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
    }
}

extension ResponseHandlingTests {
    @Test func truncatedJSONIsADecodingErrorWithASnippet() async throws {
        let client = client([.init(.get, "/users/x", json: #"{"login":"x","id":"#)])
        let error = await #expect(throws: APIError.self) { try await client.send(GetUser(login: "x")) }
        #expect(error?.kind == .decoding)
        #expect(error?.bodySnippet == #"{"login":"x","id":"#)
        #expect(error?.description.contains("User") == true)
    }
}
