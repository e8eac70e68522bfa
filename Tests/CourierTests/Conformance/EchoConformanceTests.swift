import Courier
import Foundation
import HTTPTypes
import Testing

/// What goes on the wire, as the demo server's `/echo` route saw it (raw, undecoded).
@Suite(.timeLimit(.minutes(1))) struct EchoConformanceTests {
    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: String?
        let headers: [[String]]
        let bodyText: String?

        func values(of name: String) -> [String] {
            headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
        }
    }

    struct EchoSegment: Endpoint {
        typealias Response = Echo
        let segment: String
        var path: RoutePath { "/echo/users/\(segment)/repos" }
    }

    @Test(
        arguments: TransportUnderTest.allWithTLS,
        [
            ("a/b c", "a%2Fb%20c"), ("x?y#z", "x%3Fy%23z"), ("a..b", "a..b"), ("...", "..."),
            ("é😀", "%C3%A9%F0%9F%98%80"), ("50%", "50%25"),
        ])
    func interpolatedPathSegmentsStayOneSegment(transport: TransportUnderTest, segment: (String, String)) async throws {
        let (segment, wire) = segment
        let client = try await transport.demoClient()
        let echo = try await client.send(EchoSegment(segment: segment))
        #expect(echo.path == "/echo/users/\(wire)/repos")
        #expect(echo.query == nil)
    }

    /// RFC 6265: one `Cookie` field, however the cookies were set (`HTTPFields` splits them).
    @Test(arguments: TransportUnderTest.allWithTLS)
    func cookiesGoInOneField(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient {
            $0.defaultHeaders[.cookie] = "a=1; b=2"
        }
        let echo = try await client.send(APIRequest<Echo>.get("/echo/cookies", headers: [.cookie: "c=3; d=4"]))
        #expect(echo.values(of: "Cookie") == ["c=3; d=4"])
        let defaults = try await client.send(APIRequest<Echo>.get("/echo/cookies"))
        #expect(defaults.values(of: "Cookie") == ["a=1; b=2"])
    }

    /// No encoding of `.` or `..` is safe (`%2E%2E` is `..` to WHATWG parsers and many servers): refused.
    @Test(arguments: [".", ".."])
    func dotSegmentsAreRefusedBeforeSending(segment: String) async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let error = await #expect(throws: APIError.self) { try await client.send(EchoSegment(segment: segment)) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.phase == .building)
        #expect(error?.description.contains("the path value \"\(segment)\" is a dot segment") == true)
        let bySegments = APIRequest<Void>.get(RoutePath(segments: ["files", segment]))
        let segmentsError = await #expect(throws: APIError.self) { try await client.send(bySegments) }
        #expect(segmentsError?.kind == .invalidRequest)
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func defaultQueryAndHeadersGoOnEveryRequest(transport: TransportUnderTest) async throws {
        let xClient = try #require(HTTPField.Name("X-Client"))
        let client = try await transport.demoClient {
            $0.defaultQuery = ["format": "json", "nojsoncallback": 1]
            $0.defaultHeaders = [.accept: "application/json", xClient: "courier-tests"]
        }
        let first = try await client.send(APIRequest<Echo>.get("/echo/one", query: ["q": "a+b c"]))
        let second = try await client.send(APIRequest<Echo>.post("/echo/two", body: .json(["a": 1])))
        #expect(first.query == "q=a%2Bb%20c&format=json&nojsoncallback=1")
        #expect(second.query == "format=json&nojsoncallback=1")
        for echo in [first, second] {
            #expect(echo.values(of: "X-Client") == ["courier-tests"])
            #expect(echo.values(of: "Accept") == ["application/json"])
        }
        #expect(second.method == "POST")
        #expect(second.bodyText == #"{"a":1}"#)
    }

    /// Repeated request fields all arrive, however their name is spelled (URLSession joins them into one line,
    /// which HTTP reads the same), and a CR LF in a value, made a space by HTTPTypes, starts no field on the way.
    @Test(arguments: TransportUnderTest.allWithTLS)
    func everyRequestFieldArrivesAndNoneIsInjected(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let tag = try #require(HTTPField.Name("x-trace-tag"))
        let upper = try #require(HTTPField.Name("X-Tag"))
        let lower = try #require(HTTPField.Name("x-tag"))
        var fields = HTTPFields()
        fields.append(HTTPField(name: .accept, value: "application/json"))
        fields.append(HTTPField(name: upper, value: "one"))
        fields.append(HTTPField(name: .accept, value: "text/plain"))
        fields.append(HTTPField(name: lower, value: "two"))
        fields.append(HTTPField(name: tag, value: "one\r\nX-Injected: yes"))
        let echo = try await client.send(APIRequest<Echo>.get("/echo/fields", headers: fields))
        #expect(echo.values(of: "Accept").joined(separator: ", ") == "application/json, text/plain")
        #expect(echo.values(of: "X-Tag").joined(separator: ", ") == "one, two")
        #expect(echo.values(of: "x-trace-tag").count == 1)
        #expect(echo.values(of: "x-trace-tag").first?.hasPrefix("one") == true)
        #expect(echo.values(of: "X-Injected").isEmpty)
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func basePathPrefixIsKept(transport: TransportUnderTest) async throws {
        let base = try await transport.testServerURL().appending(path: "echo/v1/")
        let echo = try await APIClient(baseURL: base, transport: transport.make()).send(
            APIRequest<Echo>.get("/things/\("a b")"))
        #expect(echo.path == "/echo/v1/things/a%20b")
    }
}

/// Repeated response fields (several `Set-Cookie`s) as each transport delivers them.
@Suite(.timeLimit(.minutes(1))) struct RepeatedFieldConformanceTests {
    @Test(arguments: TransportUnderTest.allWithTLS)
    func repeatedResponseFields(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let response = try await client.response(
            APIRequest<Data>.get("/headers/set", query: ["X-Multi": ["first", "second"]]))
        let name = try #require(HTTPField.Name("X-Multi"))
        let values = response.headerFields[values: name]
        switch transport {
        case .httpClient, .httpClientTLS:
            #expect(values == ["first", "second"], "Courier's transport keeps every field")
        case .urlSession, .openAPIURLSession:
            // FoundationNetworking joins repeated fields into one value (RFC 9110 list syntax).
            #expect(values == ["first, second"])
        case .openAPIAsyncHTTPClient:
            // Known limitation of swift-openapi-async-http-client 1.5: only the last field survives.
            #expect(values == ["second"])
        }
    }
}
