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
