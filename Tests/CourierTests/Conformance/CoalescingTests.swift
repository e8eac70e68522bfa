import Courier
import Foundation
import HTTPTypes
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

    @Test(arguments: TransportUnderTest.all)
    func aHundredIdenticalGetsInFlightReachTheServerOnce(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient { $0.coalescesRequests = true }
        let key = "burst-\(transport)-\(UUID().uuidString.prefix(8))"
        let values = try await burst(client, key: key, count: 100)
        #expect(values.count == 100)
        #expect(Set(values.map(\.served)) == [1])
        #expect(try await requests(key, client) == 1)
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
        let request = APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["delay": 2000])
        let first = Task { try await client.send(request) }
        let second = Task { try await client.send(request) }
        let third = Task { try await client.send(request) }
        try await Task.sleep(for: .milliseconds(150))
        let cancelledAt = ContinuousClock.now
        second.cancel()
        let error = await #expect(throws: APIError.self) { try await second.value }
        #expect(error?.kind == .cancelled)
        // It stopped waiting at once, not when the shared exchange ended (about 1.85 s later).
        #expect(ContinuousClock.now - cancelledAt < .seconds(1))
        #expect(try await first.value.served == 1)
        #expect(try await third.value.served == 1)
        #expect(try await requests(key, client) == 1)
    }

    @Test func whenEveryWaiterIsCancelledTheNextRequestStartsAnew() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.coalescesRequests = true }
        let key = "cancel-all-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["delay": 400])
        let waiters = (0..<3).map { _ in Task { try await client.send(request) } }
        try await Task.sleep(for: .milliseconds(100))
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { _ = await waiter.result }
        // Joining the cancelled exchange would end in its cancellation; a new one succeeds.
        let fresh = try await client.send(request)
        #expect(fresh.key == key)
    }
}
