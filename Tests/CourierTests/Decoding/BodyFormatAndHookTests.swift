import Courier
import Foundation
import HTTPTypes
import Testing
import XMLCoder

/// Body formats are pluggable: XML through XMLCoder, both ways, against the demo server.
@Suite(.timeLimit(.minutes(1))) struct BodyFormatTests {
    struct XMLUser: Codable, Sendable, Equatable {
        let login: String
        let id: Int
    }

    /// XMLCoder's encoder as a Courier body encoder (a new encoder per call: XMLEncoder is not Sendable).
    struct XMLBody: RequestBodyEncoder {
        let rootKey: String
        var contentType: String { "application/xml" }
        func encode<T: Encodable>(_ value: T) throws -> Data { try XMLEncoder().encode(value, withRootKey: rootKey) }
    }

    struct XMLReader: ResponseBodyDecoder {
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try XMLDecoder().decode(type, from: data)
        }
    }

    struct GetXMLUser: Endpoint {
        typealias Response = XMLUser
        var path: RoutePath { "/testing/xml/user" }
        var decoder: (any ResponseBodyDecoder)? { XMLReader() }
    }

    struct CreateXMLUser: Endpoint {
        typealias Response = XMLUser
        let user: XMLUser
        var method: HTTPRequest.Method { .post }
        var path: RoutePath { "/testing/xml/users" }
        var body: RequestBody { .encoded(user, using: XMLBody(rootKey: "user")) }
        var decoder: (any ResponseBodyDecoder)? { XMLReader() }
    }

    @Test func xmlRequestAndResponseRoundTrip() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        #expect(try await client.send(GetXMLUser()) == XMLUser(login: "octocat", id: 583231))
        let created = try await client.send(CreateXMLUser(user: XMLUser(login: "ada & co", id: 7)))
        #expect(created == XMLUser(login: "ada & co", id: 7))
    }

    /// An S3-style error document.
    struct S3Error: Decodable, Sendable {
        let Code: String
        let BucketName: String
    }

    @Test func aClientWideBodyDecoderDecodesSuccessAndErrorBodies() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL()) {
            $0.bodyDecoder = XMLReader()
            $0.errorBody = S3Error.self
        }
        #expect(
            try await client.send(APIRequest<XMLUser>.get("/testing/xml/user")) == XMLUser(login: "octocat", id: 583231)
        )
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Void>.get("/testing/xml/buckets/photos"))
        }
        #expect(error?.kind == .apiError)
        #expect(error?.errorBody(as: S3Error.self)?.Code == "NoSuchBucket")
        #expect(error?.errorBody(as: S3Error.self)?.BucketName == "photos")
    }

    @Test func xmlAsTheClientsDecoderViaAResponseBodyDecoderOnTheEndpoint() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let malformed = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<XMLUser>.get("/testing/xml/user"))  // JSON decoder on XML
        }
        #expect(malformed?.kind == .decoding)
        #expect(malformed?.bodySnippet?.contains("<login>octocat</login>") == true)
    }
}

/// Per-endpoint hooks (APIKit's `intercept`): adjust the built request, inspect or reject the response.
@Suite(.timeLimit(.minutes(1))) struct EndpointHookTests {
    struct Echo: Decodable, Sendable { let headers: [[String]] }

    struct Signed: Endpoint {
        typealias Response = Echo
        var reject = false
        var path: RoutePath { "/echo/signed" }
        func prepare(_ request: inout HTTPRequest) throws {
            guard let signature = HTTPField.Name("X-Signature") else { return }
            request.headerFields[signature] = "sig:\(request.method.rawValue):\(request.path ?? "")"
        }
        func inspect(_ response: HTTPResponse, body: Data) throws {
            struct Tampered: Error, CustomStringConvertible { var description: String { "signature check failed" } }
            if reject || response.headerFields[.contentType] != "application/json" { throw Tampered() }
        }
    }

    struct Unprepared: Endpoint {
        typealias Response = Echo
        var path: RoutePath { "/echo/x" }
        func prepare(_ request: inout HTTPRequest) throws { throw CancellationError() }
    }

    @Test func prepareAdjustsTheRequestAndInspectCanReject() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let echo = try await client.send(Signed())
        #expect(echo.headers.contains { $0.first?.lowercased() == "x-signature" && $0.last == "sig:GET:/echo/signed" })
        let rejected = await #expect(throws: APIError.self) { try await client.send(Signed(reject: true)) }
        #expect(rejected?.kind == .rejected)
        #expect(rejected?.phase == .inspecting)
        #expect(rejected?.description.contains("signature check failed") == true)
        let unprepared = await #expect(throws: APIError.self) { try await client.send(Unprepared()) }
        #expect(unprepared?.kind == .rejected)
        #expect(unprepared?.phase == .preparing)
    }
}
