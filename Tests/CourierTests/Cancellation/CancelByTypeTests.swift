import Foundation
import Synchronization
import Testing

@testable import Courier

/// `cancelAll(_:where:)` cancels in-flight requests of one endpoint type only.
@Suite(.timeLimit(.minutes(1))) struct CancelByTypeTests {
    struct Slept: Decodable, Sendable { let sleptMilliseconds: Int }

    struct SlowA: Endpoint, CancellableByType {
        typealias Response = Slept
        let index: Int
        var path: RoutePath { "/slow" }
        var query: Query { ["ms": 700] }
    }

    struct SlowB: Endpoint, CancellableByType {
        typealias Response = Slept
        var path: RoutePath { "/slow" }
        var query: Query { ["ms": 700] }
    }

    func client() async throws -> APIClient {
        APIClient(baseURL: try await TestServers.testServerURL())
    }

    @Test func cancelAllOfOneTypeLeavesTheOthers() async throws {
        let client = try await client()
        let outcomes = try await withThrowingTaskGroup(of: (String, APIError.Kind?).self) { group in
            for index in 0..<10 {
                group.addTask {
                    do throws(APIError) {
                        _ = try await client.send(SlowA(index: index))
                        return ("A", nil)
                    } catch { return ("A", error.kind) }
                }
                group.addTask {
                    do throws(APIError) {
                        _ = try await client.send(SlowB())
                        return ("B", nil)
                    } catch { return ("B", error.kind) }
                }
            }
            try await eventually("ten SlowA requests in flight") { client.registry.count(SlowA.self) == 10 }
            #expect(client.cancelAll(SlowA.self) == 10)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { $0.0 == "A" }.allSatisfy { $0.1 == .cancelled })
        #expect(outcomes.filter { $0.0 == "B" }.allSatisfy { $0.1 == nil })
        #expect(outcomes.count == 20)
    }

    @Test func throughTheCompletionHandlerAPIWithAFilter() async throws {
        let client = try await client()
        let results = Mutex<[(String, APIError.Kind?)]>([])
        for index in 0..<10 {
            client.send(SlowA(index: index)) { result in
                results.withLock { $0.append(("A\(index)", result.failure?.kind)) }
            }
            client.send(SlowB()) { result in results.withLock { $0.append(("B", result.failure?.kind)) } }
        }
        try await eventually("ten SlowA requests in flight") { client.registry.count(SlowA.self) == 10 }
        #expect(client.cancelAll(SlowA.self) { $0.index.isMultiple(of: 2) } == 5)
        try await eventually("twenty completion handlers called") { results.withLock({ $0.count }) == 20 }
        let all = results.withLock { $0 }
        #expect(all.count == 20)
        let cancelled = Set(all.filter { $0.1 == .cancelled }.map(\.0))
        #expect(cancelled == ["A0", "A2", "A4", "A6", "A8"])
        #expect(all.filter { $0.1 != .cancelled }.allSatisfy { $0.1 == nil })
    }

    struct DelayedPage: Decodable, Sendable { let page: Int }

    /// Pages behind `Link` headers; every page after the first arrives six seconds late.
    struct SlowLinkedPages: PaginatedEndpoint, CancellableByType {
        typealias Response = DelayedPage
        var path: RoutePath { "/testing/pages/link" }
        var query: Query { ["total": 100, "per_page": 20, "delay_ms": 30_000] }
        func items(in page: DelayedPage) -> [Int] { [page.page] }
        func nextPage(after page: APIResponse<DelayedPage>) -> NextPage<Self>? { .followingLink(in: page) }
    }

    @Test func aPageReachedThroughALinkIsCancelledAsTheEndpointItContinues() async throws {
        let client = try await client()
        let (firstPage, firstPageArrived) = AsyncStream.makeStream(of: Int.self)
        let iteration = Task { () async -> APIError.Kind? in
            defer { firstPageArrived.finish() }  // a failure before the first page ends the wait below
            do throws(APIError) {
                for try await page in client.pages(SlowLinkedPages()) { firstPageArrived.yield(page.value.page) }
                return nil
            } catch {
                return error.kind
            }
        }
        var pages = firstPage.makeAsyncIterator()
        #expect(await pages.next() == 1)
        // The second page's request is recorded once the loop asks for it.
        try await eventually("the second page's request in flight") { client.registry.count(SlowLinkedPages.self) == 1 }
        let cancelled = client.cancelAll(SlowLinkedPages.self)
        let clock = ContinuousClock()
        let start = clock.now
        #expect(cancelled == 1)
        #expect(await iteration.value == .cancelled)
        #expect(clock.now - start < .seconds(10), "the linked page should end at once, not after its 30 s delay")
    }

    @Test func nothingInFlightCancelsNothing() async throws {
        #expect(try await client().cancelAll(SlowA.self) == 0)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
