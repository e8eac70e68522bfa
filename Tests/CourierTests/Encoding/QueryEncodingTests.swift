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
        let query: Query = ["filter": ["lang": "swift", "stars": [">10"]], "rows": [["id": 1], ["id": 2]]]
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
        #expect(QueryEncoding(arrays: .commaSeparated).serialize(["a": [], "b": "1"], escaping: .unreserved) == "b=1")
    }

    @Test func enumRawValues() {
        enum Sort: String { case stars }
        #expect(QueryEncoding().serialize(["sort": .init(Sort.stars)], escaping: .unreserved) == "sort=stars")
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
