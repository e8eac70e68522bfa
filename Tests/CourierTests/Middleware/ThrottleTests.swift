import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import Courier

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
                        APIRequest<Data>.get("/testing/concurrency/\(key)", query: ["delayMs": delayMs]))
                }
            }
            try await group.waitForAll()
        }
    }

    func stats(_ key: String) async throws -> Stats {
        try await APIClient(baseURL: try await TestServers.testServerURL())
            .send(APIRequest<Stats>.get("/testing/concurrency/\(key)/stats"))
    }

    @Test func atMostTwoInFlightAcrossTwentyCalls() async throws {
        let key = "throttle-\(UUID().uuidString)"
        let client = APIClient(
            baseURL: try await TestServers.testServerURL(), middlewares: [.throttle(maxConcurrent: 2)])
        try await run(20, key: key, through: client, delayMs: 50)
        let stats = try await stats(key)
        #expect(stats.total == 20)
        #expect(stats.maxInFlight == 2, "the server saw \(stats.maxInFlight) requests at once")
    }

    /// Measured where the throttle acts, at the transport, on the throttle's own clock, which the test moves:
    /// each start waits for the one before it plus 100 ms, and not a moment less.
    @Test func ratePerSecondSpacesStarts() async throws {
        let clock = ManualClock()
        let starts = Mutex<[Duration]>([])
        let transport = MockTransport { _ in
            starts.withLock { $0.append(clock.now.offset) }
            return (HTTPResponse(status: .noContent), Data())
        }
        let client = APIClient(
            baseURL: exampleBaseURL, transport: transport, middlewares: [.throttle(perSecond: 10, clock: clock)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { try await client.send(APIRequest<Void>.get("/x")) } }
            for started in 1..<6 {
                // The request before has reached the transport (and noted the time), the next waits its turn.
                try await eventually("\(started) request(s) at the transport") {
                    starts.withLock { $0.count } == started
                }
                await clock.waitForSleepers()
                clock.advance(by: .milliseconds(99))
                #expect(clock.sleeperCount == 1, "a request started less than 100 ms after the one before")
                clock.advance(by: .milliseconds(1))
            }
            try await group.waitForAll()
        }
        let times = starts.withLock { $0 }.sorted()
        #expect(times == (0..<6).map { .milliseconds(100 * $0) }, "starts at \(times)")
    }

    /// Ordered by events: the holder is known to be in the transport, the waiter known to be queued, before
    /// anything is cancelled or released.
    @Test func aCancelledWaiterFreesNothingItDidNotTake() async throws {
        let gate = GatedTransport()
        let client = APIClient(
            baseURL: exampleBaseURL, transport: gate, middlewares: [.throttle(maxConcurrent: 1)])
        let throttle = try #require((client.middlewares.first as? ThrottleMiddleware)?.throttle)
        let holder = Task { try await client.send(APIRequest<Void>.get("/holder")) }
        try await gate.waitUntilEntered(1)
        let waiter = Task { try await client.send(APIRequest<Void>.get("/waiter")) }
        try await eventually("the waiter queued") { throttle.waitingCount == 1 }
        waiter.cancel()
        let error = await #expect(throws: APIError.self) { try await waiter.value }
        #expect(error?.kind == .cancelled)
        #expect(throttle.waitingCount == 0)
        gate.open()
        try await holder.value
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 { group.addTask { try await client.send(APIRequest<Void>.get("/after/\(index)")) } }
            try await group.waitForAll()
        }
        #expect(gate.maxInFlight == 1, "a cancelled waiter let \(gate.maxInFlight) requests in at once")
        #expect(gate.paths == ["/holder", "/after/0", "/after/1", "/after/2", "/after/3"].sorted())
    }
}

/// A transport that holds every request until ``open()``, recording how many are inside at once.
final class GatedTransport: ClientTransport, Sendable {
    private struct State {
        var isOpen = false
        var entered = 0
        var inFlight = 0
        var maxInFlight = 0
        var paths: [String] = []
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var paths: [String] { state.withLock { $0.paths.sorted() } }

    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func waitUntilEntered(_ count: Int) async throws {
        try await eventually("\(count) request(s) in the transport") { state.withLock({ $0.entered }) >= count }
    }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        await withCheckedContinuation { continuation in
            let proceed = state.withLock { state in
                state.entered += 1
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                state.paths.append(request.path ?? "")
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if proceed { continuation.resume() }
        }
        state.withLock { $0.inFlight -= 1 }
        return (HTTPResponse(status: .noContent), nil)
    }
}

/// A transport whose response body streams three chunks, 100 ms apart on `clock` when it has one, recording
/// when (on that clock) each request starts.
struct StreamingBodyTransport: ClientTransport {
    let clock: ManualClock?
    let starts = StartLog()

    final class StartLog: Sendable {
        let times = Mutex<[Duration]>([])
    }

    init(clock: ManualClock? = nil) { self.clock = clock }

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        let clock = self.clock
        starts.times.withLock { $0.append(clock?.now.offset ?? .zero) }
        let chunks = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            Task {
                for index in 0..<3 {
                    // On the test's ManualClock, which the test moves: no real time passes.
                    if let clock { try? await clock.sleep(for: .milliseconds(100)) }
                    continuation.yield([UInt8(index)])
                }
                continuation.finish()
            }
        }
        return (HTTPResponse(status: .ok), HTTPBody(chunks, length: .unknown))
    }
}

extension ThrottleTests {
    @Test func aStreamingBodyKeepsItsSlotUntilReadToTheEnd() async throws {
        let clock = ManualClock()
        let transport = StreamingBodyTransport(clock: clock)
        let client = APIClient(
            baseURL: exampleBaseURL, transport: transport, middlewares: [.throttle(maxConcurrent: 1)])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { _ = try await client.send(APIRequest<Data>.get("/stream")) } }
            // Three chunks of one body, then three of the other: one body streams at a time.
            for _ in 0..<6 {
                await clock.waitForSleepers()
                clock.advance(by: .milliseconds(100))
            }
            try await group.waitForAll()
        }
        let starts = transport.starts.times.withLock { $0 }.sorted()
        #expect(starts == [.zero, .milliseconds(300)], "the second request started while the first body streamed")
    }

    @Test func rejectedResponsesFreeTheirSlots() async throws {
        let transport = StreamingBodyTransport()
        let client = APIClient(
            baseURL: exampleBaseURL, transport: transport, middlewares: [.throttle(maxConcurrent: 1)])
        for _ in 0..<3 {
            await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Data>.get("/stream").withStatuses([201..<202]))
            }
        }
        #expect(transport.starts.times.withLock { $0.count } == 3, "each rejected response freed its slot")
    }
}

extension APIRequest {
    /// This request with other acceptable statuses.
    func withStatuses(_ statuses: AcceptableStatuses) -> Self {
        var copy = self
        copy.acceptableStatuses = statuses
        return copy
    }
}
