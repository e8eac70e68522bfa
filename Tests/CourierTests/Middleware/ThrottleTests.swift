import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The throttle, observed by the demo server, which records requests in flight and arrival times per key.
@Suite(.timeLimit(.minutes(1))) struct ThrottleTests {
    struct Stats: Decodable, Sendable {
        let maxInFlight: Int
        let total: Int
        let arrivals: [Double]
    }

    func run(_ count: Int, key: String, through client: APIClient, delayMs: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    _ = try await client.send(
                        APIRequest<Data>.get("/testing/concurrency/\(key)", query: ["delayMs": .init(delayMs)]))
                }
            }
            try await group.waitForAll()
        }
    }

    func stats(_ key: String) async throws -> Stats {
        try await APIClient(baseURL: try await TestServers.demoURL())
            .send(APIRequest<Stats>.get("/testing/concurrency/\(key)/stats"))
    }

    @Test func atMostTwoInFlightAcrossTwentyCalls() async throws {
        let key = "throttle-\(UUID().uuidString)"
        let client = APIClient(baseURL: try await TestServers.demoURL(), middlewares: [.throttle(maxConcurrent: 2)])
        try await run(20, key: key, through: client, delayMs: 50)
        let stats = try await stats(key)
        #expect(stats.total == 20)
        #expect(stats.maxInFlight == 2, "the server saw \(stats.maxInFlight) requests at once")
    }

    /// Measured where the throttle acts, at the transport: server arrival times can only be later, and a
    /// delayed arrival under load would make later gaps look shorter than they were.
    @Test func ratePerSecondSpacesStarts() async throws {
        let starts = Mutex<[ContinuousClock.Instant]>([])
        let transport = MockTransport { _ in
            starts.withLock { $0.append(.now) }
            return (HTTPResponse(status: .noContent), Data())
        }
        let client = APIClient(baseURL: exampleBaseURL, transport: transport, middlewares: [.throttle(perSecond: 10)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { try await client.send(APIRequest<Void>.get("/x")) } }
            try await group.waitForAll()
        }
        let times = starts.withLock { $0 }.sorted()
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(times.count == 6)
        #expect(gaps.allSatisfy { $0 >= .milliseconds(95) }, "starts were \(gaps) apart; the limit spaces them 100 ms")
    }

    @Test func aCancelledWaiterFreesNothingItDidNotTake() async throws {
        let key = "cancel-\(UUID().uuidString)"
        let client = APIClient(baseURL: try await TestServers.demoURL(), middlewares: [.throttle(maxConcurrent: 1)])
        let holder = Task {
            try await client.send(APIRequest<Data>.get("/testing/concurrency/\(key)", query: ["delayMs": 400]))
        }
        try await Task.sleep(for: .milliseconds(100))
        let waiter = Task {
            try await client.send(APIRequest<Data>.get("/testing/concurrency/\(key)", query: ["delayMs": 0]))
        }
        try await Task.sleep(for: .milliseconds(50))
        waiter.cancel()
        let error = await #expect(throws: APIError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        _ = try await holder.value
        try await run(4, key: key, through: client, delayMs: 50)
        let stats = try await stats(key)
        #expect(stats.maxInFlight == 1, "a cancelled waiter let \(stats.maxInFlight) requests in at once")
        #expect(stats.total == 5)
    }
}
