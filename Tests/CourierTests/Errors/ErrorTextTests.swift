import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// The pieces error text is made of: status lines, body snippets, kinds and phases.
@Suite struct ErrorTextTests {
    @Test(arguments: [
        (HTTPResponse.Status(code: 404, reasonPhrase: ""), "404 Not Found"),
        (.init(code: 404, reasonPhrase: "Nope"), "404 Nope"),
        (.init(code: 503, reasonPhrase: ""), "503 Service Unavailable"),
        (.init(code: 418, reasonPhrase: ""), "418"),
        (.init(code: 299, reasonPhrase: ""), "299"),
        (.init(code: 200, reasonPhrase: "OK"), "200 OK"),
    ])
    func statusText(status: HTTPResponse.Status, expected: String) {
        #expect(StatusText.describe(status) == expected)
    }

    @Test func snippets() {
        func snippet(_ text: String, around location: Int? = nil) -> String? {
            FailureContext.snippet(of: Array(text.utf8), around: location)
        }
        #expect(snippet("") == nil)
        #expect(snippet("short") == "short")
        #expect(snippet("a\r\nb\nc") == "a b c")
        let long = String(repeating: "x", count: APIError.snippetLimit + 10)
        #expect(snippet(long) == String(repeating: "x", count: APIError.snippetLimit) + "…")
        let exact = String(repeating: "é", count: APIError.snippetLimit)
        #expect(snippet(exact) == exact, "a body of exactly the limit is not cut")
        #expect(snippet(String(repeating: "y", count: APIError.snippetLimit * 8))?.hasSuffix("…") == true)
        // Around a location: starts a third of the limit before it, never inside a character.
        let text = String(repeating: "é", count: 1000) + "HERE" + String(repeating: "z", count: 1000)
        let around = snippet(text, around: 2001)  // 2001 − 170 is the second byte of an "é"
        #expect(around?.hasPrefix("…é") == true)
        #expect(around?.contains("HERE") == true)
        #expect(around?.hasSuffix("z…") == true)
        #expect(around.map { $0.count } == APIError.snippetLimit + 2)
    }

    static let kinds: [APIError.Kind] = [
        .invalidRequest, .encoding, .transport, .middleware, .timedOut, .cancelled, .unacceptableStatus, .apiError,
        .logicalError, .decoding, .bodyTooLarge, .rejected, .authenticationFailed, .fileAccess,
    ]

    @Test func kindsAndPhasesAreDistinctByIdentity() {
        #expect(Set(Self.kinds).count == Self.kinds.count)
        #expect(Set(Self.kinds.map(\.description)).count == Self.kinds.count)
        let phases: [APIError.Phase] = [
            .building, .preparing, .sending, .validating, .receiving, .inspecting, .decoding,
        ]
        #expect(Set(phases).count == phases.count)
        #expect(APIError.Kind.transport.description == "transport failed")
    }
}

/// Field-name constants are built from literals with an unwrap; each must be the name it spells.
@Suite struct FieldNameConstantTests {
    @Test func everyConstantIsTheNameItSpells() {
        let names: [(HTTPField.Name, String)] = [
            (.link, "Link"), (.idempotencyKey, "Idempotency-Key"), (.xAPIKey, "X-API-Key"),
            (.xAuthToken, "X-Auth-Token"), (.pragma, "Pragma"), (.lastEventID, "Last-Event-ID"),
        ]
        for (name, text) in names {
            #expect(name.rawName == text)
            #expect(name == HTTPField.Name(text))
        }
    }
}
