import Courier
import CourierDemoServer
import Foundation
import HTTPTypes
import Testing

/// Envelopes and in-body failures against the demo server's envelope API and Flickr-style API.
@Suite(.timeLimit(.minutes(1))) struct EnvelopeTests {
    struct Session: Decodable, Sendable {
        let accessToken: String
        let expiresIn: Int
    }
    struct Credentials: Encodable, Sendable {
        let username: String
        let password: String
    }
    struct Article: Decodable, Sendable {
        let id: Int
        let title: String
    }
    struct Avatar: Decodable, Sendable { let url: String }

    func client() async throws -> APIClient {
        APIClient(baseURL: try await TestServers.testServerURL()) { $0.envelope = .successFlag }
    }

    func logIn(_ client: APIClient, password: String = DemoCredentials.envelopePassword) async throws(APIError)
        -> Session
    {
        try await client.send(
            APIRequest<Session>.post(
                "/envelope/login", body: .json(Credentials(username: DemoCredentials.envelopeUser, password: password)))
        )
    }

    @Test func successIsUnwrapped() async throws {
        let client = try await client()
        let session = try await logIn(client)
        #expect(!session.accessToken.isEmpty)
        let articles = try await client.send(
            APIRequest<[Article]>.get("/envelope/articles", headers: [.authorization: "Bearer \(session.accessToken)"]))
        #expect(articles.count == 10)
    }

    @Test func successFalseIsALogicalErrorWithCodeAndMessage() async throws {
        let client = try await client()
        let error = await #expect(throws: APIError.self) { try await logIn(client, password: "wrong") }
        #expect(error?.kind == .logicalError)
        #expect(error?.status == .ok)
        let info = error?.errorBody(as: SuccessFlagEnvelope.ErrorInfo.self)
        #expect(info?.errorCode == 1001)
        #expect(info?.errorMessage == "Invalid username or password")
        #expect(
            error?.description.contains("the API reported a failure: Invalid username or password (code 1001)") == true)
    }

    @Test func aServerErrorStaysAServerError() async throws {
        let error = await #expect(throws: APIError.self) {
            try await client().send(APIRequest<[Article]>.get("/envelope/crash"))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status == .internalServerError)
    }

    @Test func aMalformedEnvelopeIsADecodingError() async throws {
        let error = await #expect(throws: APIError.self) {
            try await client().send(APIRequest<[Article]>.get("/envelope/malformed"))
        }
        #expect(error?.kind == .decoding)
    }

    @Test func aNullResponseNeedsAnOptionalPayload() async throws {
        let client = try await client()
        let session = try await logIn(client)
        let auth: HTTPFields = [.authorization: "Bearer \(session.accessToken)"]
        let avatar = try await client.send(APIRequest<Avatar?>.get("/envelope/profile/avatar", headers: auth))
        #expect(avatar == nil)
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Avatar>.get("/envelope/profile/avatar", headers: auth))
        }
        #expect(error?.kind == .decoding)
        #expect(error?.description.contains("decode into Avatar? to accept that") == true)
    }

    @Test func anEndpointCanOptOutOfTheClientsEnvelope() async throws {
        struct PlainUser: Endpoint {
            typealias Response = User
            var path: RoutePath { "/json/user" }
            var envelope: (any ResponseEnvelope)? { .noEnvelope }
        }
        #expect(try await client().send(PlainUser()).login == "octocat")
    }

    /// Flickr reports failures with HTTP 200 and `{"stat":"fail",…}`; a user-written envelope covers it (the
    /// one the Envelopes article shows).
    typealias FlickrStat = EnvelopesListings.FlickrStat

    @Test func flickrStyleFailuresWithHTTP200AreLogicalErrors() async throws {
        struct Photos: Decodable, Sendable { let photos: Page }
        struct Page: Decodable, Sendable { let page: Int }
        let client = APIClient(baseURL: try await TestServers.testServerURL()) {
            $0.envelope = FlickrStat()
            $0.defaultQuery = ["format": "json", "nojsoncallback": 1]
        }
        let query: Query = ["method": "flickr.photos.getRecent", "api_key": DemoCredentials.flickrAPIKey]
        #expect(try await client.send(APIRequest<Photos>.get("/services/rest/", query: query)).photos.page == 1)
        let error = await #expect(throws: APIError.self) {
            try await client.send(
                APIRequest<Photos>.get(
                    "/services/rest/", query: ["method": "flickr.photos.getRecent", "api_key": "wrong"]))
        }
        #expect(error?.kind == .logicalError)
        #expect(error?.description.contains("Invalid API Key") == true)
        #expect(error?.description.contains("(code 100)") == true)
        #expect(error?.description.contains("api_key=<redacted>") == true)
    }
}
