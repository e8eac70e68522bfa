import Courier
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Request coalescing end to end, against the demo server's `/testing/cache/{key}?delay=ms`, which counts
/// the requests each key receives.
@Suite(.timeLimit(.minutes(1)))
struct CoalescingTests {
    func requests(_ key: String, _ client: APIClient) async throws -> Int {
        try await client.send(APIRequest<CacheStats>.get("/testing/cache/\(key)/stats").coalesced(false)).requests
    }

    func burst(_ client: APIClient, key: String, count: Int) async throws -> [CachedResource] {
        try await withThrowingTaskGroup(of: CachedResource.self) { group in
            for _ in 0..<count {
                group.addTask {
                    try await client.send(
                        APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["delay": 300]))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func aHundredIdenticalGetsInFlightReachTheServerOnce(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient { $0.coalescesRequests = true }
        let key = "burst-\(transport)-\(UUID().uuidString.prefix(8))"
        let values = try await burst(client, key: key, count: 100)
        #expect(Set(values.map(\.served)) == [1])
        #expect(try await requests(key, client) == 1)
    }

    /// An endpoint that counts how often its body is decoded.
    struct CountedGet: Endpoint {
        typealias Response = CachedResource
        static let decodes = Atomic(0)
        let key: String
        var path: RoutePath { "/testing/cache/\(key)" }
        var query: Query { ["delay": 300] }
        func decode(_ body: Data, context: ResponseContext) throws -> CachedResource {
            Self.decodes.add(1, ordering: .relaxed)
            return try JSONDecoder().decode(CachedResource.self, from: body)
        }
    }

    @Test func aSharedResponseIsDecodedOncePerType() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.coalescesRequests = true }
        let key = "decode-once-\(UUID().uuidString.prefix(8))"
        let before = CountedGet.decodes.load(ordering: .relaxed)
        let values = try await withThrowingTaskGroup(of: CachedResource.self) { group in
            for _ in 0..<20 { group.addTask { try await client.send(CountedGet(key: key)) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(values.map(\.served)) == [1])
        #expect(CountedGet.decodes.load(ordering: .relaxed) - before == 1)
        #expect(try await requests(key, client) == 1)
    }

    @Test func throughMiddlewareIdenticalRequestsStillShareOneExchange() async throws {
        let (logger, _) = RecordingLogHandler.logger()
        let client = try await TransportUnderTest.httpClient.demoClient(
            middlewares: [LoggingMiddleware(logger: logger), .retry()]
        ) { $0.coalescesRequests = true }
        let key = "middleware-\(UUID().uuidString.prefix(8))"
        let values = try await burst(client, key: key, count: 20)
        #expect(Set(values.map(\.served)) == [1])
        #expect(try await requests(key, client) == 1)
    }

    @Test func aSharedBodyPastTheLimitIsBodyTooLargeForEveryCaller() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient {
            $0.coalescesRequests = true
            $0.maxBodySize = 16  // the resource's JSON is longer
        }
        let key = "too-large-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Data>.get("/testing/cache/\(key)", query: ["delay": 300])
        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do {
                        _ = try await client.send(request)
                        return nil
                    } catch {
                        return error as? APIError
                    }
                }
            }
            return await group.reduce(into: [APIError?]()) { $0.append($1) }
        }
        #expect(errors.map { $0?.kind } == [APIError.Kind.bodyTooLarge, .bodyTooLarge])
        #expect(errors.map { $0?.phase } == [APIError.Phase.receiving, .receiving])
        #expect(errors.map { $0?.status } == [HTTPResponse.Status.ok, .ok])
        let counter = try await TransportUnderTest.httpClient.demoClient()  // with the default limit
        #expect(try await requests(key, counter) == 1)  // they shared one exchange
    }

    @Test func aReloadDoesNotJoinARequestTheCacheMayAnswer() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient {
            $0.coalescesRequests = true
            $0.cache = HTTPCache()
        }
        let key = "modes-\(UUID().uuidString.prefix(8))"
        let path: RoutePath = "/testing/cache/\(key)"
        async let plain = client.send(APIRequest<CachedResource>.get(path, query: ["delay": 300]))
        async let reload = client.send(APIRequest<CachedResource>.get(path, query: ["delay": 300]).cacheMode(.reload))
        let served = try await [plain.served, reload.served]
        #expect(Set(served) == [1, 2])
        #expect(try await requests(key, client) == 2)
    }

    @Test func withoutCoalescingEveryRequestReachesTheServer() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "apart-\(UUID().uuidString.prefix(8))"
        _ = try await burst(client, key: key, count: 100)
        #expect(try await requests(key, client) == 100)
    }

    @Test func requestsWithOtherCredentialsAreNotShared() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.coalescesRequests = true }
        let key = "credentials-\(UUID().uuidString.prefix(8))"
        async let alice = client.send(
            APIRequest<CachedResource>.get(
                "/testing/cache/\(key)", query: ["delay": 300], headers: [.authorization: "Bearer a"]))
        async let bob = client.send(
            APIRequest<CachedResource>.get(
                "/testing/cache/\(key)", query: ["delay": 300], headers: [.authorization: "Bearer b"]))
        _ = try await (alice, bob)
        #expect(try await requests(key, client) == 2)
    }

    @Test func cancellingOneWaiterLeavesTheOthersTheirValue() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.coalescesRequests = true }
        let key = "cancel-one-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["delay": 5000])
        let first = Task { try await client.send(request) }
        let second = Task { try await client.send(request) }
        let third = Task { try await client.send(request) }
        // The shared request has reached the server (it counts requests on arrival), so all three wait on it.
        try await eventually("the shared request at the server") { try await requests(key, client) == 1 }
        let cancelledAt = ContinuousClock.now
        second.cancel()
        let error = await #expect(throws: APIError.self) { try await second.value }
        #expect(error?.kind == .cancelled)
        // It stopped waiting at once, not when the shared exchange ended (seconds later).
        #expect(ContinuousClock.now - cancelledAt < .seconds(1))
        #expect(try await first.value.served == 1)
        #expect(try await third.value.served == 1)
        #expect(try await requests(key, client) == 1)
    }

    @Test func whenEveryWaiterIsCancelledTheNextRequestStartsAnew() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.coalescesRequests = true }
        let key = "cancel-all-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["delay": 1000])
        let waiters = (0..<3).map { _ in Task { try await client.send(request) } }
        // Cancel once the shared request has reached the server (it counts requests on arrival).
        try await eventually("the shared request at the server") { try await requests(key, client) == 1 }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { _ = await waiter.result }
        // Joining the cancelled exchange would end in its cancellation; a new one succeeds, and is the
        // server's second request.
        let fresh = try await client.send(request)
        #expect(fresh.served == 2)
    }
}
