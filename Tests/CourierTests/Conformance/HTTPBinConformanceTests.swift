import Courier
import Foundation
import HTTPTypes
import Testing

/// Encoding checked by an independent server: httpbin reports what it parsed.
@Suite(
    .enabled(if: TestServers.httpbinAvailable, "run scripts/test, or set COURIER_HTTPBIN_URL"),
    .timeLimit(.minutes(1))
)
struct HTTPBinConformanceTests {
    /// httpbin's account of a request.
    struct Report: Decodable, Sendable {
        let args: [String: OneOrMany]
        let form: [String: OneOrMany]?
        let json: [String: OneOrMany]?
        let headers: [String: String]
    }

    /// httpbin reports a repeated key as a list and a single one as a string.
    enum OneOrMany: Decodable, Sendable, Equatable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([String].self) {
                self = .many(list)
            } else {
                self = .one(try container.decode(String.self))
            }
        }
    }

    static let trickyValues = [
        "a+b", "a&b=c", "semi;colon", "slash/and?question", "hash#tag", "100% sure", "with space", "café",
        "😀 grin", "=leading", "a=b=c", "tab\there", "quote\"'", "percent%2B",
    ]

    func client(_ transport: TransportUnderTest, _ configure: (inout APIClient.Configuration) -> Void = { _ in })
        throws -> APIClient
    {
        let base = try #require(TestServers.httpbinURL, "COURIER_HTTPBIN_URL is not set")
        return APIClient(baseURL: base, transport: transport.make(), configure: configure)
    }

    @Test(arguments: TransportUnderTest.all)
    func trickyQueryValuesArriveIntact(transport: TransportUnderTest) async throws {
        var query = Query()
        for (index, value) in Self.trickyValues.enumerated() { query.append("v\(index)", .string(value)) }
        query.append("key with space & amp", "ok")
        let report = try await client(transport).send(APIRequest<Report>.get("/get", query: query))
        for (index, value) in Self.trickyValues.enumerated() {
            #expect(report.args["v\(index)"] == .one(value), "value \(value.debugDescription) changed in transit")
        }
        #expect(report.args["key with space & amp"] == .one("ok"))
    }

    @Test(
        arguments: TransportUnderTest.all,
        [
            (QueryEncoding.ArrayEncoding.repeatedKey, "tags", OneOrMany.many(["a", "b,c"])),
            (.brackets, "tags[]", .many(["a", "b,c"])),
            (.commaSeparated, "tags", .one("a,b,c")),
        ])
    func arrayStrategiesAsHTTPBinParsesThem(
        transport: TransportUnderTest, strategy: (QueryEncoding.ArrayEncoding, String, OneOrMany)
    ) async throws {
        let (arrays, key, expected) = strategy
        let client = try client(transport) { $0.queryEncoding.arrays = arrays }
        let report = try await client.send(APIRequest<Report>.get("/get", query: ["tags": ["a", "b,c"]]))
        #expect(report.args[key] == expected)
    }

    @Test(arguments: TransportUnderTest.all)
    func boolsAndNestedKeys(transport: TransportUnderTest) async throws {
        let client = try client(transport) { $0.queryEncoding.bools = .numeric }
        let report = try await client.send(
            APIRequest<Report>.get("/get", query: ["on": true, "filter": ["lang": "swift"]]))
        #expect(report.args["on"] == .one("1"))
        #expect(report.args["filter[lang]"] == .one("swift"))
    }

    @Test(arguments: TransportUnderTest.all)
    func formBodyFieldsArriveIntact(transport: TransportUnderTest) async throws {
        var fields = Query()
        for (index, value) in Self.trickyValues.enumerated() { fields.append("f\(index)", .string(value)) }
        fields.append("name with space", "x")
        let report = try await client(transport).send(APIRequest<Report>.post("/post", body: .form(fields)))
        let form = try #require(report.form)
        for (index, value) in Self.trickyValues.enumerated() {
            #expect(form["f\(index)"] == .one(value), "form value \(value.debugDescription) changed in transit")
        }
        #expect(form["name with space"] == .one("x"))
        #expect(report.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test(arguments: TransportUnderTest.all)
    func jsonBodyArrivesIntact(transport: TransportUnderTest) async throws {
        let sent = ["name": "café 😀", "plus": "a+b&c=d"]
        let report = try await client(transport).send(APIRequest<Report>.post("/post", body: .json(sent)))
        #expect(report.json == sent.mapValues { .one($0) })
        #expect(report.headers["Content-Type"] == "application/json")
    }
}
