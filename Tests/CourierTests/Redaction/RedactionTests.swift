import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

@Suite struct RedactionTests {
    let redaction = Redaction.default

    @Test func secretQueryValuesAreReplacedWhateverTheirCase() {
        let url = "https://x.test/a?q=1&API_KEY=abc&token=t%20t&key%5B%5D=zz&page=2#frag"
        #expect(
            redaction.redact(url: url)
                == "https://x.test/a?q=1&API_KEY=<redacted>&token=<redacted>&key%5B%5D=<redacted>&page=2#frag")
    }

    @Test func secretHeadersAreReplaced() {
        let fields: HTTPFields = [.authorization: "Bearer abc", .cookie: "a=b", .accept: "*/*"]
        let redacted = redaction.redact(headers: fields)
        #expect(redacted[.authorization] == "<redacted>")
        #expect(redacted[.cookie] == "<redacted>")
        #expect(redacted[.accept] == "*/*")
    }

    @Test func configuredNamesAreCaseInsensitive() {
        var custom = Redaction.default
        custom.queryNames.insert("Session_ID")
        #expect(custom.redact(url: "https://x.test/?session_id=1") == "https://x.test/?session_id=<redacted>")
    }
}

extension RedactionTests {
    @Test func urlsInsideTextAndUserInfoAreRedacted() {
        let text =
            #"failed: Error Domain=NSURLErrorDomain UserInfo={NSErrorFailingURLStringKey=http://127.0.0.1:1/x?api_key=SECRETKEY, other}"#
        #expect(!redaction.scrub(text, secrets: []).contains("SECRETKEY"))
        #expect(redaction.redact(url: "https://ada:pa55@host.test/a?q=1") == "https://<redacted>@host.test/a?q=1")
    }

    @Test func secretFieldsInBodySnippetsAreRedacted() async throws {
        let body = #"{"token":"ACCESS-123456","refreshToken":"REFRESH-654321","oops":1}"#
        let mock = MockTransport { _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(body.utf8))
        }
        struct Grant: Decodable, Sendable {
            let token: String
            let expiresIn: Int
        }
        let client = APIClient(baseURL: exampleBaseURL, transport: mock)
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Grant>.get("/login")) }
        #expect(error?.kind == .decoding)
        #expect(error?.description.contains("ACCESS-123456") == false)
        #expect(error?.description.contains("REFRESH-654321") == false)
    }

    @Test func aBaseURLWithCredentialsIsRefusedWithoutShowingThem() async throws {
        let url = try #require(URL(string: "https://ada:pa55word@api.example.com"))
        let error = await #expect(throws: APIError.self) {
            try await APIClient(baseURL: url, transport: MockTransport(stubs: [])).send(APIRequest<Void>.get("/x"))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.description.contains("pa55word") == false)
    }
}

/// The secrets a credential field carries are hidden wherever its value is echoed, in every shape of value;
/// only an auth scheme and cookie names are left to read.
@Suite struct CredentialShapeTests {
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: HTTPField.Name
        let value: String
        /// What must never be readable once the echoed value is scrubbed.
        let hidden: [String]
        /// What the scrubbed echo reads.
        let shown: String
        var testDescription: String { "\(name): \(value)" }
    }

    static let shapes = [
        Shape(name: .authorization, value: "Bearer tok-123456", hidden: ["tok-123456"], shown: "Bearer <redacted>"),
        Shape(name: .authorization, value: "Bearer  tok-654321", hidden: ["tok-654321"], shown: "Bearer  <redacted>"),
        // A first word that may be part of the secret is no scheme.
        Shape(name: .authorization, value: "k3yAbC123 sig456", hidden: ["k3yAbC123", "sig456"], shown: "<redacted>"),
        Shape(name: .authorization, value: "tok-no-scheme", hidden: ["tok-no-scheme"], shown: "<redacted>"),
        Shape(
            name: .authorization, value: "Basic " + Data("ada:pw-7731".utf8).base64EncodedString(),
            hidden: [Data("ada:pw-7731".utf8).base64EncodedString()], shown: "Basic <redacted>"),
        // A cookie without `=` is a secret whole; a short value keeps the whole field secret.
        Shape(
            name: .cookie, value: "abcdef; sid=xyz123", hidden: ["abcdef", "xyz123"],
            shown: "<redacted>; sid=<redacted>"),
        Shape(name: .cookie, value: "a=1; sid=xyz123", hidden: ["a=1; sid=xyz123", "xyz123"], shown: "<redacted>"),
        Shape(name: .xAPIKey, value: "key 8d41b6", hidden: ["key 8d41b6"], shown: "<redacted>"),
    ]

    @Test(arguments: shapes)
    func anEchoedCredentialShowsOnlyItsStructure(shape: Shape) {
        let request = HTTPRequest(
            method: .get, scheme: "https", authority: "x.test", path: "/", headerFields: [shape.name: shape.value])
        let secrets = Redaction.default.secretValues(in: [request])
        let echoed = Redaction.replacing(secrets, in: #"{"echo": "\#(shape.value)"}"#)
        for secret in shape.hidden { #expect(!echoed.contains(secret), "\(echoed)") }
        #expect(echoed == #"{"echo": "\#(shape.shown)"}"#)
    }
}
