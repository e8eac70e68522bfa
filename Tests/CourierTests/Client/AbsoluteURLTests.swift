import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Requests to absolute URLs (`RoutePath.url(_:)`) and links to other origins: sent through the client's
/// middleware to the base URL's origin and to the origins it allows, refused before sending anywhere else.
@Suite(.timeLimit(.minutes(1))) struct AbsoluteURLTests {
    typealias Echo = EchoConformanceTests.Echo

    /// Adds `X-Middleware: ran` to every request, to show the client's middleware ran.
    struct MarkingMiddleware: ClientMiddleware {
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            if let name = HTTPField.Name("X-Middleware") { request.headerFields[name] = "ran" }
            return try await next(request, body, baseURL)
        }
    }

    /// The demo server's URL with `localhost` for `127.0.0.1`: the same server, another origin.
    static func otherOrigin(of url: URL) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.host = "localhost"
        return try #require(components.url)
    }

    @Test(arguments: TransportUnderTest.all)
    func anAllowedOriginGetsTheMiddlewareAndHeadersButNotTheDefaultQuery(transport: TransportUnderTest)
        async throws
    {
        let demo = try await TestServers.testServerURL()
        let other = try Self.otherOrigin(of: demo)
        let otherOrigin = try #require(Origin(other))
        let client = APIClient(
            baseURL: demo.appending(path: "api/v1"), transport: transport.make(), middlewares: [MarkingMiddleware()]
        ) {
            $0.defaultQuery = ["key": "base-origin-only"]
            $0.defaultHeaders[.accept] = "application/json"
            $0.allowedOrigins = [otherOrigin]
        }
        let upload = try #require(URL(string: other.absoluteString + "/echo/uploads/a%20b?sig=x%20y"))
        let response = try await client.response(
            APIRequest<Echo>.put(.url(upload), query: ["part": 1], body: .text("chunk")))
        #expect(response.value.method == "PUT")
        #expect(response.value.path == "/echo/uploads/a%20b")
        #expect(response.value.query == "sig=x%20y&part=1")
        #expect(response.value.values(of: "Host").first?.hasPrefix("localhost:") == true)
        #expect(response.value.values(of: "X-Middleware") == ["ran"])
        #expect(response.value.values(of: "Accept") == ["application/json"])
        #expect(response.value.bodyText == "chunk")
        #expect(response.url?.absoluteString == upload.absoluteString + "&part=1")
    }

    @Test func theBaseOriginOutsideTheBasePathGetsTheDefaultQuery() async throws {
        let demo = try await TestServers.testServerURL()
        let client = APIClient(baseURL: demo.appending(path: "api/v1")) { $0.defaultQuery = ["key": "k"] }
        let echo = try await client.send(APIRequest<Echo>.get(.url(demo.appending(path: "echo/elsewhere"))))
        #expect(echo.path == "/echo/elsewhere")
        #expect(echo.query == "key=k")
    }

    @Test(arguments: [
        "https://elsewhere.example/upload?key=SECRET", "http://127.0.0.1:1/echo", "file:///etc/passwd",
        "ftp://example.com/file", "https://user:pass@api.example.com/x",
    ])
    func otherURLsAreRefusedBeforeSending(target: String) async throws {
        let mock = MockTransport { _ in (HTTPResponse(status: .ok), Data()) }
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock) {
            $0.allowedOrigins = ["https://uploads.example.com"]
        }
        let url = try #require(URL(string: target))
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.post(.url(url))) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.phase == .building)
        #expect(error?.method == .post)
        #expect(error?.description.contains("SECRET") == false)
        #expect(error?.description.contains("user:pass") == false)
        #expect(mock.requests.isEmpty)
    }

    /// `prepare(_:)` may adjust a request but not send it somewhere else.
    @Test func prepareCannotMoveTheRequestToAnotherHost() async throws {
        struct Moving: Endpoint {
            typealias Response = Void
            var path: RoutePath { "/x" }
            func prepare(_ request: inout HTTPRequest) throws { request.authority = "evil.example" }
        }
        let mock = MockTransport { _ in (HTTPResponse(status: .ok), Data()) }
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock)
        let error = await #expect(throws: APIError.self) { try await client.send(Moving()) }
        #expect(error?.kind == .rejected)
        #expect(error?.phase == .preparing)
        #expect(mock.requests.isEmpty)
    }

    /// Links that only look like the base URL are judged by their origin.
    @Test(arguments: [
        "https://api.example.com.evil.example/items?page=2", "https://api.example.com@evil.example/items?page=2",
        "http://api.example.com/items?page=2", "https://api.example.com:8443/items?page=2",
    ])
    func lookAlikeLinksAreRefused(link: String) async throws {
        struct Items: PaginatedEndpoint {
            typealias Response = [Int]
            let next: URL
            var path: RoutePath { "/items" }
            func items(in page: [Int]) -> [Int] { page }
            func nextPage(after page: APIResponse<[Int]>) -> NextPage<Self>? { .link(next) }
        }
        let mock = MockTransport { _ in (HTTPResponse(status: .ok), Data("[1]".utf8)) }
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock)
        var iterator = client.pages(Items(next: try #require(URL(string: link)))).makeAsyncIterator()
        _ = try await iterator.next()
        let error = await #expect(throws: APIError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .invalidRequest)
        #expect(mock.requests.count == 1)
    }

    @Test func originsCompareByScheme_Host_AndPort() throws {
        func origin(_ text: String) -> Origin? { URL(string: text).flatMap(Origin.init) }
        #expect(origin("HTTPS://API.example.com:443/a?b") == origin("https://api.example.com"))
        #expect(origin("http://api.example.com") != origin("https://api.example.com"))
        #expect(origin("https://api.example.com:8443") != origin("https://api.example.com"))
        #expect(origin("http://[::1]:8080/x")?.description == "http://[::1]:8080")
        #expect(origin("file:///etc/passwd") == nil)
        #expect(origin("/relative") == nil)
        let literal: Origin = "https://api.example.com/ignored/path"
        #expect(literal == origin("https://api.example.com"))
        let invalid: Origin = "api.example.com"
        #expect(invalid.description == "(not an origin: api.example.com)")
        #expect(invalid != origin("https://api.example.com"))
    }

    struct LinkPage: Decodable, Sendable { let items: [PaginationTests.Item] }

    /// Link pagination whose links point at `origin`.
    struct PagesElsewhere: PaginatedEndpoint {
        typealias Response = LinkPage
        let origin: URL
        var path: RoutePath { "/testing/pages/link" }
        var query: Query { ["total": 30, "per_page": 10, "link_origin": origin.absoluteString] }
        func items(in page: LinkPage) -> [PaginationTests.Item] { page.items }
        func nextPage(after page: APIResponse<LinkPage>) -> NextPage<Self>? { .followingLink(in: page) }
    }

    @Test func aLinkToAnotherOriginIsFollowedOnlyWhenTheClientAllowsIt() async throws {
        let demo = try await TestServers.testServerURL()
        let other = try Self.otherOrigin(of: demo)
        let refusing = APIClient(baseURL: demo)
        var iterator = refusing.items(PagesElsewhere(origin: other)).makeAsyncIterator()
        for _ in 0..<10 { _ = try await iterator.next() }
        let error = await #expect(throws: APIError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.description.contains("allowedOrigins") == true)

        let otherOrigin = try #require(Origin(other))
        let allowing = APIClient(baseURL: demo) { $0.allowedOrigins = [otherOrigin] }
        var ids: [Int] = []
        for try await item in allowing.items(PagesElsewhere(origin: other)) { ids.append(item.id) }
        #expect(ids == Array(1...30))
    }
}
