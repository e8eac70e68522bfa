import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// An API's error body without a `description` of its own reads as the API's message, never as a Swift dump.
@Suite struct ErrorBodyMessageTests {
    /// Decodes any JSON object; has no `description` of its own.
    struct AnyError: Decodable, Sendable {
        let message: String?
        let reason: String?
    }

    /// An error body with a `description` of its own.
    struct Described: Decodable, Sendable, CustomStringConvertible {
        let code: Int
        var description: String { "code \(code)" }
    }

    func failure<Body: Decodable & Sendable>(_ json: String, as type: Body.Type) async throws -> APIError? {
        let mock = MockTransport(stubs: [.init(.get, "/thing", status: .forbidden, json: json)])
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock) {
            $0.errorBody = type
        }
        return await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/thing")) }
    }

    @Test(arguments: [
        (#"{"message":"Forbidden","reason":null}"#, "Forbidden"),
        (#"{"error":"invalid_grant","error_description":"The refresh token expired"}"#, "The refresh token expired"),
        (#"{"type":"about:blank","title":"Forbidden","detail":"Project 7 is private"}"#, "Project 7 is private"),
        (#"{"title":"Forbidden"}"#, "Forbidden"),
        (#"{"error":"access_denied"}"#, "access_denied"),
        (#"{"error":{"code":403,"message":"Quota exceeded for project 7"}}"#, "Quota exceeded for project 7"),
    ])
    func theAPIsOwnMessageIsShown(json: String, message: String) async throws {
        let error = try await failure(json, as: AnyError.self)
        #expect(error?.kind == .apiError)
        #expect(error?.message == message)
        #expect(error?.description == "GET https://api.example.com/thing failed: 403 Forbidden — API error: \(message)")
    }

    @Test func withoutAUsualMemberTheRedactedBodyIsShown() async throws {
        let error = try await failure(#"{"code":7,"access_token":"SECRET-TOKEN-1"}"#, as: AnyError.self)
        let message = try #require(error?.message)
        #expect(message.contains(#""code":7"#), "\(message)")
        #expect(!message.contains("SECRET-TOKEN-1") && !message.contains("AnyError("), "\(message)")
    }

    @Test func aLongMessageIsCutToASnippetOnOneLine() async throws {
        let long = String(repeating: "x", count: 5_000)
        let error = try await failure(#"{"message":"first line\nsecond \#(long)"}"#, as: AnyError.self)
        let message = try #require(error?.message)
        #expect(message.hasPrefix("first line second x"))
        #expect(message.count <= APIError.snippetLimit + 1, "\(message.count) characters")
    }

    @Test func aBodyTypeThatDescribesItselfIsShownByItsDescription() async throws {
        let error = try await failure(#"{"code":42,"message":"ignored"}"#, as: Described.self)
        #expect(error?.message == "code 42")
    }
}
