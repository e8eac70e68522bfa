import Foundation
import Testing

@testable import Courier

@Suite struct QueryEncodingTests {
    let query: Query = ["tags": ["a", "b,c"], "on": true, "off": false]

    @Test(arguments: [
        (QueryEncoding.ArrayEncoding.repeatedKey, "tags=a&tags=b%2Cc&on=true&off=false"),
        (.brackets, "tags%5B%5D=a&tags%5B%5D=b%2Cc&on=true&off=false"),
        (.commaSeparated, "tags=a,b%2Cc&on=true&off=false"),
    ])
    func arrayStrategies(arrays: QueryEncoding.ArrayEncoding, expected: String) {
        #expect(QueryEncoding(arrays: arrays).serialize(query, escaping: .unreserved) == expected)
    }

    @Test func numericBools() {
        let text = QueryEncoding(bools: .numeric).serialize(["on": true, "off": false], escaping: .unreserved)
        #expect(text == "on=1&off=0")
    }

    @Test func nestedObjectsAndListsOfObjects() {
        // A nested literal of mixed types is written as a `QueryValue` (or a `Query`); one of a single type
        // is a dictionary, whose keys are sorted.
        let query: Query = [
            "filter": QueryValue.object(["lang": "swift", "stars": [">10"]]), "rows": [["id": 1], ["id": 2]],
        ]
        let text = QueryEncoding().serialize(query, escaping: .unreserved)
        #expect(
            text == "filter%5Blang%5D=swift&filter%5Bstars%5D=%3E10&rows%5B0%5D%5Bid%5D=1&rows%5B1%5D%5Bid%5D=2")
    }

    @Test func orderAndDuplicatesAreKept() {
        var query: Query = ["b": "2", "a": "1"]
        query.append("b", "3")
        #expect(QueryEncoding().serialize(query, escaping: .unreserved) == "b=2&a=1&b=3")
    }

    @Test func subscriptReplacesAllOfANameInPlaceAndRemoves() {
        var query: Query = ["a": "1", "b": "2"]
        query.append("a", "3")
        query["a"] = "9"
        #expect(query.parameters.map(\.name) == ["a", "b"])
        #expect(query["a"] == "9")
        query["a"] = nil
        #expect(query.parameters.map(\.name) == ["b"])
        let optional: String? = nil
        let skipped: Query = ["x": optional.map(QueryValue.string), "y": "1"]
        #expect(skipped.parameters.map(\.name) == ["y"])
    }

    @Test func emptyListWritesNothing() {
        #expect(
            QueryEncoding(arrays: .commaSeparated).serialize(["a": [String](), "b": "1"], escaping: .unreserved)
                == "b=1")
    }

    @Test func enumRawValues() {
        enum Sort: String, QueryValueConvertible { case stars }
        #expect(QueryEncoding().serialize(["sort": Sort.stars], escaping: .unreserved) == "sort=stars")
        #expect(QueryEncoding().serialize(["sort": QueryValue(Sort.stars)], escaping: .unreserved) == "sort=stars")
    }

    /// Variables go into a query literal as they are, with the values they would have as literals.
    @Test func variablesOfEveryConvertibleType() {
        let q = "swift ios"
        let page = 2
        let ratio = 0.5
        let draft = false
        let missing: Int? = nil
        let tags = ["a", "b"]
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        let link = URL(string: "https://example.com/a?b=c")
        let filter = ["z": 1, "a": 2]  // a dictionary has no order: its keys are sorted
        let query: Query = [
            "q": q, "page": page, "ratio": ratio, "draft": draft, "missing": missing, "tags": tags, "id": id,
            "link": link, "filter": filter, "sub": q.dropFirst(6),
        ]
        #expect(
            QueryEncoding().serialize(query, escaping: .unreserved)
                == "q=swift%20ios&page=2&ratio=0.5&draft=false&tags=a&tags=b"
                + "&id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F&link=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc"
                + "&filter%5Ba%5D=2&filter%5Bz%5D=1&sub=ios")
        var appended = Query()
        appended.append("q", q)
        appended.append("page", page)
        #expect(appended == ["q": "swift ios", "page": 2])
    }
}

/// Building queries out of parts.
@Suite struct QueryCompositionTests {
    @Test func concatenationKeepsOrderAndRepeatedNames() {
        let base: Query = ["q": "swift", "page": 1]
        let more: Query = ["page": 2, "sort": "stars"]
        let joined = base + more
        #expect(joined.parameters.map(\.name) == ["q", "page", "page", "sort"])
        var appended = base
        appended.append(contentsOf: more)
        #expect(appended == joined)
        #expect(QueryEncoding().serialize(joined, escaping: .unreserved) == "q=swift&page=1&page=2&sort=stars")
        #expect(base + [:] == base)
    }
}
