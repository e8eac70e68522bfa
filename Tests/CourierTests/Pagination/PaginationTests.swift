import Courier
import Foundation
import HTTPTypes
import Testing

/// Pagination over the demo server's Link, cursor and page-number routes, counting the server's requests.
@Suite(.timeLimit(.minutes(1))) struct PaginationTests {
    struct Item: Decodable, Sendable, Equatable { let id: Int }
    struct LinkPage: Decodable, Sendable { let items: [Item] }
    struct CursorPage: Decodable, Sendable {
        let items: [Item]
        let next_cursor: String?
    }
    struct NumberedPage: Decodable, Sendable {
        let items: [Item]
        let page: Int
        let total_pages: Int
    }
    struct Stats: Decodable, Sendable { let requests: Int }

    struct LinkedItems: PaginatedEndpoint {
        typealias Response = LinkPage
        var flags: Query = [:]
        var path: RoutePath { "/testing/pages/link" }
        var query: Query {
            Query(
                [QueryParameter(name: "total", value: 100), QueryParameter(name: "per_page", value: 20)]
                    + flags.parameters)
        }
        func items(in page: LinkPage) -> [Item] { page.items }
        func nextPage(after page: APIResponse<LinkPage>) -> NextPage<Self>? { .followingLink(in: page) }
    }

    struct CursorItems: PaginatedEndpoint {
        typealias Response = CursorPage
        var cursor: String?
        var path: RoutePath { "/testing/pages/cursor" }
        var query: Query { ["limit": 20, "total": 100, "cursor": cursor.map(QueryValue.string)] }
        func items(in page: CursorPage) -> [Item] { page.items }
        func nextPage(after page: APIResponse<CursorPage>) -> NextPage<Self>? {
            page.value.next_cursor.map { .endpoint(CursorItems(cursor: $0)) }
        }
    }

    struct NumberedItems: PaginatedEndpoint {
        typealias Response = NumberedPage
        var page = 1
        var path: RoutePath { "/testing/pages/numbered" }
        var query: Query { ["page": page, "per_page": 20, "total": 100] }
        func items(in page: NumberedPage) -> [Item] { page.items }
        func nextPage(after page: APIResponse<NumberedPage>) -> NextPage<Self>? {
            page.value.page < page.value.total_pages ? .endpoint(NumberedItems(page: self.page + 1)) : nil
        }
    }

    func requests(_ client: APIClient) async throws -> Int {
        try await client.send(APIRequest<Stats>.get("/testing/pages/stats")).requests
    }

    @Test(arguments: [Query(), ["relative": 1]])
    func fivePagesOfTwentyAreExactlyOneHundredItemsInFiveRequests(flags: Query) async throws {
        try await TestServers.withFreshTestServer { base in
            let client = APIClient(baseURL: base)
            var ids: [Int] = []
            for try await item in client.items(LinkedItems(flags: flags)) { ids.append(item.id) }
            #expect(ids == Array(1...100))
            #expect(try await requests(client) == 5)
        }
    }

    @Test func stoppingAfterThirtyItemsSendsTwoRequests() async throws {
        try await TestServers.withFreshTestServer { base in
            let client = APIClient(baseURL: base)
            var count = 0
            for try await _ in client.items(LinkedItems()) {
                count += 1
                if count == 30 { break }
            }
            #expect(try await requests(client) == 2)
        }
    }

    @Test func aRepeatedNextLinkEndsTheSequence() async throws {
        try await TestServers.withFreshTestServer { base in
            let client = APIClient(baseURL: base)
            var pages = 0
            for try await _ in client.pages(LinkedItems(flags: ["repeat": 1])) { pages += 1 }
            #expect(pages == 2)
            #expect(try await requests(client) == 2)
        }
    }

    @Test func cursorAndPageNumberAPIs() async throws {
        try await TestServers.withFreshTestServer { base in
            let client = APIClient(baseURL: base)
            var cursorIDs: [Int] = []
            for try await item in client.items(CursorItems()) { cursorIDs.append(item.id) }
            #expect(cursorIDs == Array(1...100))
            var numberedIDs: [Int] = []
            for try await item in client.items(NumberedItems()) { numberedIDs.append(item.id) }
            #expect(numberedIDs == Array(1...100))
            #expect(try await requests(client) == 10)
        }
    }

    @Test func maxPagesCapsTheSequence() async throws {
        try await TestServers.withFreshTestServer { base in
            let client = APIClient(baseURL: base)
            var ids: [Int] = []
            for try await item in client.items(NumberedItems(), maxPages: 2) { ids.append(item.id) }
            #expect(ids == Array(1...40))
            #expect(try await requests(client) == 2)
        }
    }

    @Test func linksOutsideTheBaseURLAreRefused() async throws {
        struct Elsewhere: PaginatedEndpoint {
            typealias Response = LinkPage
            var path: RoutePath { "/testing/pages/link" }
            var query: Query { ["total": 100, "per_page": 20] }
            func items(in page: LinkPage) -> [Item] { page.items }
            func nextPage(after page: APIResponse<LinkPage>) -> NextPage<Self>? {
                URL(string: "https://elsewhere.example/steal?key=SECRET").map { .link($0) }
            }
        }
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        var iterator = client.pages(Elsewhere()).makeAsyncIterator()
        _ = try await iterator.next()
        let error = await #expect(throws: APIError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.description.contains("SECRET") == false)
    }

    @Test func cancellingTheIteratingTaskEndsItAsCancelled() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let task = Task {
            var count = 0
            for try await _ in client.items(NumberedItems()) {
                count += 1
                if count == 25 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
    }
}
