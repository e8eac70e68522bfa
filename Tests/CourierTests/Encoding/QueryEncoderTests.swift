import Foundation
import Testing

@testable import Courier

@Suite struct QueryEncoderTests {
    struct Search: Encodable {
        let q: String
        let page: Int
        let draft: Bool
        let tags: [String]
        let missing: String?
        let since: Date
        let filter: Filter
    }

    struct Filter: Encodable {
        let lang: String
    }

    @Test func encodesKeysInOrderWithNestingDatesAndNoNils() throws {
        let value = Search(
            q: "a+b", page: 2, draft: false, tags: ["x", "y"], missing: nil,
            since: Date(timeIntervalSince1970: 0), filter: Filter(lang: "swift"))
        let query = try QueryEncoder().encode(value)
        #expect(query.parameters.map(\.name) == ["q", "page", "draft", "tags", "since", "filter"])
        let text = QueryEncoding().serialize(query, escaping: .unreserved)
        #expect(
            text
                == "q=a%2Bb&page=2&draft=false&tags=x&tags=y&since=1970-01-01T00%3A00%3A00Z&filter%5Blang%5D=swift")
    }

    @Test func dateStrategies() throws {
        struct When: Encodable { let at: Date }
        let value = When(at: Date(timeIntervalSince1970: 1.5))
        #expect(try QueryEncoder(dateEncoding: .secondsSince1970).encode(value)["at"] == "1.5")
        #expect(try QueryEncoder(dateEncoding: .millisecondsSince1970).encode(value)["at"] == "1500")
        #expect(try QueryEncoder(dateEncoding: .custom { _ in "today" }).encode(value)["at"] == "today")
    }

    @Test func topLevelMustBeKeyed() {
        #expect(throws: EncodingError.self) { try QueryEncoder().encode(["a", "b"]) }
        #expect(throws: EncodingError.self) { try QueryEncoder().encode("plain") }
    }

    @Test func nonFiniteNumbersAreAnError() {
        struct Ratio: Encodable { let value: Double }
        #expect(throws: EncodingError.self) { try QueryEncoder().encode(Ratio(value: .infinity)) }
    }
}
