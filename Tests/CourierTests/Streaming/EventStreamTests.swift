import Courier
import Foundation
import HTTPTypes
import Testing

/// Server-sent events end to end, on every transport, against the demo server's `/testing/events/{key}`.
@Suite(.timeLimit(.minutes(1)))
struct EventStreamTests {
    struct Tick: Decodable, Sendable, Equatable { let n: Int }

    struct Stats: Decodable, Sendable {
        let opened: Int
        let closed: Int
        let lastEventIDs: [String]
    }

    /// What the test server saw of the streams of `key`.
    static func stats(_ key: String, _ client: APIClient) async throws -> Stats {
        try await client.send(APIRequest<Stats>.get("/testing/events/\(key)/stats"))
    }

    @Test(arguments: TransportUnderTest.all)
    func eventsArriveTypedAndInOrder(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "order-\(transport)-\(UUID().uuidString.prefix(8))"
        var ticks: [Tick] = []
        var ids: [String] = []
        for try await event in client.events(APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 5])) {
            #expect(event.type == "tick")
            ticks.append(try event.decode(Tick.self))
            ids.append(event.lastEventID)
        }
        #expect(ticks == (0..<5).map(Tick.init))
        #expect(ids == ["0", "1", "2", "3", "4"])
    }

    @Test(arguments: TransportUnderTest.all)
    func leavingTheLoopClosesTheConnectionWithinASecond(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "leave-\(transport)-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 1000, "intervalMs": 50])
        var received = 0
        for try await _ in client.events(request) {
            received += 1
            if received == 2 { break }
        }
        try await eventually("the server seeing the connection close", within: .seconds(15)) {
            try await Self.stats(key, client).closed == 1
        }
    }

    @Test func anUnacceptableStatusIsAnAPIErrorBeforeAnyEvent() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(APIRequest<Void>.get("/status/503")) {}
        }
        #expect(error?.status == .serviceUnavailable)
    }

    @Test(arguments: TransportUnderTest.all)
    func withoutReconnectionADropEndsWithTheEventsBeforeItAndAnError(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "drop-\(transport)-\(UUID().uuidString.prefix(8))"
        var ticks: [Int] = []
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 10, "dropAfter": 3])
        let error = await #expect(throws: APIError.self) {
            for try await event in client.events(request, reconnecting: .never) {
                ticks.append(try event.decode(Tick.self).n)
            }
        }
        #expect(error?.phase == .receiving)
        #expect(error?.kind == .transport)  // what reconnection takes as a drop
        #expect(ticks == [0, 1, 2])  // the half event at the drop is discarded
    }

    @Test(arguments: TransportUnderTest.all)
    func aDroppedStreamReconnectsWithLastEventIDAfterTheServersRetry(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "reconnect-\(transport)-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get(
            "/testing/events/\(key)", query: ["count": 6, "dropAfter": 3, "retry": 400])
        var ticks: [Int] = []
        var arrivals: [ContinuousClock.Instant] = []
        // The policy's own delay is 30 s: only the server's retry can make the gap short.
        for try await event in client.events(request, reconnecting: ReconnectPolicy(delay: .seconds(30), jitter: false))
        {
            ticks.append(try event.decode(Tick.self).n)
            arrivals.append(.now)
        }
        #expect(ticks == [0, 1, 2, 3, 4, 5])
        let stats = try await Self.stats(key, client)
        #expect(stats.lastEventIDs == ["", "2"])
        // The server's retry (400 ms) was waited, not the policy's 30 s: event 3 came at least 0.4 s after event 2,
        // and before 30 s (the bound leaves room for the whole suite's load, which has stalled a reconnection
        // for over 2 s on this 2-core machine, and once for over 10 s).
        if arrivals.count == 6 {
            let gap = arrivals[3] - arrivals[2]
            #expect(gap >= .milliseconds(400) && gap < .seconds(25), "gap \(gap)")
        }
    }

    @Test func aPostStreamIsNotSentAgainAfterADrop() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "post-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.post(
            "/testing/events/\(key)", query: ["count": 6, "dropAfter": 3, "retry": 10], body: .json(["q": "x"]))
        var ticks: [Int] = []
        let error = await #expect(throws: APIError.self) {
            for try await event in client.events(request) { ticks.append(try event.decode(Tick.self).n) }
        }
        #expect(error?.kind == .transport)
        #expect(ticks == [0, 1, 2])
        #expect(try await Self.stats(key, client).opened == 1)
    }

    @Test func aResponseThatIsNotAnEventStreamFails() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(APIRequest<Void>.get("/testing/cache/not-events")) {}
        }
        #expect(error?.kind == .decoding)
        #expect(error?.message?.contains("not text/event-stream") == true)
    }

    @Test func aReconnectionAnswered204EndsTheStream() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "stop-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get(
            "/testing/events/\(key)", query: ["count": 6, "dropAfter": 3, "retry": 10, "stopWith204": 1])
        var ticks: [Int] = []
        for try await event in client.events(request) { ticks.append(try event.decode(Tick.self).n) }
        #expect(ticks == [0, 1, 2])
        #expect(try await Self.stats(key, client).opened == 2)
    }

    @Test func aReconnectionAnsweredWithAnUnacceptableStatusEndsWithItsError() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "refused-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get(
            "/testing/events/\(key)", query: ["count": 6, "dropAfter": 3, "retry": 10, "reconnectStatus": 403])
        var ticks: [Int] = []
        let error = await #expect(throws: APIError.self) {
            for try await event in client.events(request) { ticks.append(try event.decode(Tick.self).n) }
        }
        #expect(ticks == [0, 1, 2])
        #expect(error?.status == .forbidden)
        #expect(error?.bodySnippet?.contains("reconnection refused") == true)
        #expect(try await Self.stats(key, client).opened == 2)
    }
}
