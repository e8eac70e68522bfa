import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// An error's body snippet is the body as it came, secrets redacted in place, and centred on where decoding
/// failed; the bounded raw body is kept for formats Courier does not decode.
@Suite struct ReadableFailureTests {
    func redact(_ json: String, locating path: [any CodingKey]? = nil) -> (String, Int?) {
        let result = Redaction.default.redacted(
            body: Data(json.utf8), contentType: "application/json", secrets: [], locating: path)
        return (String(decoding: result.text, as: UTF8.self), result.location)
    }

    @Test(arguments: [
        // Order, spacing and escapes are kept; only secret members' values change.
        (
            #"{"zeta": 1, "url": "https:\/\/x.example\/a", "token": "abc", "a": [1, 2]}"#,
            #"{"zeta": 1, "url": "https:\/\/x.example\/a", "token": "<redacted>", "a": [1, 2]}"#
        ),
        (#"{"password":{"nested":["x",{"y":1}]},"next":true}"#, #"{"password":"<redacted>","next":true}"#),
        (#"[{"api_key":12345},{"ok":null}]"#, #"[{"api_key":"<redacted>"},{"ok":null}]"#),
        (#"{"na\"me":"v","access_token":"a\"b\\c"}"#, #"{"na\"me":"v","access_token":"<redacted>"}"#),
        // Truncated bodies are redacted as far as they go; a secret cut off is dropped.
        (#"{"user":"ada","token":"abc"#, #"{"user":"ada","token":"<redacted>""#),
        (#"{"user":"ada","secret":{"a":[1,2"#, #"{"user":"ada","secret":"<redacted>""#),
        (#"{"user": "ada", "items": [1, 2"#, #"{"user": "ada", "items": [1, 2"#),
        // Not JSON after all: copied as it is (the request's own secret values are scrubbed separately).
        ("<html>token=abc</html>", "<html>token=abc</html>"),
        // Several values (JSON Lines), and text that stops parsing: redacted by pattern from there on.
        ("{\"a\":1}\n{\"token\":\"s1\"}", "{\"a\":1}\n{\"token\":\"<redacted>\"}"),
        (#"[{"a":1,}, {"token":"s2"}]"#, #"[{"a":1,}, {"token":"<redacted>"}]"#),
        (#"{'access_token': 's3', 'b': 1}"#, #"{'access_token': "<redacted>", 'b': 1}"#),
        (#")]}'\#n{"token": "s4"}"#, #")]}'\#n{"token": "<redacted>"}"#),
        // Escaped names are decoded before they are judged.
        (#"{"\u0074oken":"s5"}"#, #"{"\u0074oken":"<redacted>"}"#),
        // A quote-escaped URL does not throw the scanner off.
        (
            #"{"see":"\"https://x.example/?a=1\" now","token":"s6"}"#,
            #"{"see":"\"https://x.example/?a=1\" now","token":"<redacted>"}"#
        ),
    ])
    func jsonIsRedactedInPlace(body: String, expected: String) {
        #expect(redact(body).0 == expected)
    }

    @Test func deepNestingAndBodiesThatAreNotUTF8StillHideSecrets() {
        let deep = String(repeating: "[", count: 300) + #"{"token":"deep-secret"}"# + String(repeating: "]", count: 300)
        #expect(!redact(deep).0.contains("deep-secret"))
        var latin1 = Array(#"{"msg":"caf"#.utf8) + [0xE9] + Array(#"","access_token":"t-secret"}"#.utf8)
        let asText = Redaction.default.redacted(body: Data(latin1), contentType: "text/plain", secrets: ["caf"])
        #expect(!String(decoding: asText.text, as: UTF8.self).contains("t-secret"), "JSON by its first character")
        #expect(!String(decoding: asText.text, as: UTF8.self).contains("caf"), "the request's secrets, byte for byte")
        latin1.removeAll()
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init(_ index: Int) {
            stringValue = "Index \(index)"
            intValue = index
        }
        init?(stringValue: String) { self.init(stringValue) }
        init?(intValue: Int) { self.init(intValue) }
    }

    @Test func theFailingPathIsLocated() {
        let body = #"{"items": [{"id": 1}, {"id": "two"}], "total_count": 2}"#
        let (text, location) = redact(body, locating: [Key("items"), Key(1), Key("id")])
        #expect(location.map { String(text.utf8.dropFirst($0))?.hasPrefix(#""two"}"#) } == true)
        // A key a decoder converted from snake case is still found.
        let (_, snake) = redact(body, locating: [Key("totalCount")])
        #expect(snake.map { String(body.utf8.dropFirst($0))?.hasPrefix("2}") } == true)
        #expect(redact(body, locating: [Key("items"), Key(5)]).1 == nil)
    }

    struct Item: Decodable, Sendable { let id: Int }
    struct Items: Decodable, Sendable { let items: [Item] }

    @Test func aDecodingErrorShowsTheBodyAsItCameAroundTheFailure() async throws {
        let filler = (0..<60).map { #"{"id": \#($0), "url": "https:\/\/cdn.example\/\#($0)"}"# }.joined(separator: ", ")
        let body = #"{"token": "s3cr3t-token", "items": [\#(filler), {"id": "sixty"}, {"id": 61}]}"#
        let client = APIClient(
            baseURL: try #require(URL(string: "https://api.example.com")),
            transport: MockTransport(stubs: [.init(.get, "/items", json: body)]))
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Items>.get("/items")) }
        #expect(error?.kind == .decoding)
        let snippet = try #require(error?.bodySnippet)
        #expect(snippet.hasPrefix("…"))
        #expect(snippet.contains(#"{"id": "sixty"}"#))
        #expect(snippet.contains(#"https:\/\/cdn.example\/59"#), "escapes are kept as they came")
        #expect(error?.description.contains("items[60].id") == true)
        let raw = try #require(error?.body.map { String(decoding: $0, as: UTF8.self) })
        #expect(raw.hasPrefix(#"{"token": "<redacted>", "items": [{"id": 0, "#))
        #expect(!raw.contains("s3cr3t"))
    }

    @Test func theRawBodyIsBoundedAndKeptForFormatsCourierDoesNotDecode() async throws {
        let problem = String(repeating: "<detail>rate limited</detail>", count: 4000)  // ~116 KB of XML
        let client = APIClient(
            baseURL: try #require(URL(string: "https://api.example.com")),
            transport: MockTransport { _ in
                var response = HTTPResponse(status: .tooManyRequests)
                response.headerFields[.contentType] = "application/xml"
                return (response, Data(problem.utf8))
            })
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.body?.count == APIError.bodyLimit)
        #expect(error?.body.map { String(decoding: $0, as: UTF8.self).hasPrefix("<detail>rate limited") } == true)
        #expect(error?.bodySnippet?.count == APIError.snippetLimit + 1)
    }
}
