import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// A stream's idle timeout: a gap between events (or records) longer than it ends the read; an event
/// stream reconnects after it as after a drop. On every transport, against the demo server.
@Suite(.timeLimit(.minutes(1)))
struct StreamIdleTimeoutTests {
    typealias Tick = EventStreamTests.Tick
    typealias Stats = EventStreamTests.Stats

    @Test(arguments: TransportUnderTest.all)
    func aGapLongerThanTheIdleTimeoutEndsAnEventStreamWithTimedOut(transport: TransportUnderTest) async throws {
        let clock = ManualClock()
        let client = try await transport.demoClient { $0.clock = clock }
        let key = "idle-\(transport)-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 3, "intervalMs": 3000])
        var reading = BackgroundRead(client.events(request, reconnecting: .never, idleTimeout: .milliseconds(500))) {
            (try? $0.decode(Tick.self).n) ?? -1
        }
        // The first event arrived; the next is 3 s away on the server, and the idle timeout passes on the
        // client's clock first.
        #expect(await reading.next() == 0)
        await clock.waitForSleepers()
        clock.advance(by: .milliseconds(499))
        #expect(clock.sleeperCount == 1, "timed out before its 500 ms")
        clock.advance(by: .milliseconds(1))
        let (ticks, error) = await reading.result.value
        #expect(ticks == [0])
        #expect(error?.kind == .timedOut)
        #expect(error?.phase == .receiving)
        #expect(error?.message?.contains("idle timeout") == true, "\(error?.message ?? "")")
        // The timed-out read closed the connection: the server sees it go.
        try await eventually("the server seeing the connection close") {
            try await client.send(APIRequest<Stats>.get("/testing/events/\(key)/stats")).closed == 1
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func anEventStreamReconnectsAfterAnIdleTimeoutWithLastEventID(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "idle-reconnect-\(transport)-\(UUID().uuidString.prefix(8))"
        // Events 4 s apart against a 1 s idle timeout: every event after the first on a connection is late, so
        // each connection delivers one event and the next resumes after it.
        let request = APIRequest<Void>.get(
            "/testing/events/\(key)", query: ["count": 3, "intervalMs": 4000, "retry": 10])
        var ticks: [Int] = []
        for try await event in client.events(request, idleTimeout: .seconds(1)) {
            ticks.append(try event.decode(Tick.self).n)
        }
        #expect(ticks == [0, 1, 2])
        let stats = try await client.send(APIRequest<Stats>.get("/testing/events/\(key)/stats"))
        // A fourth connection (Last-Event-ID 2, answered with no events) happens when the end of the third
        // stream reaches the client after the timeout, as it can under the whole suite's load.
        #expect(Array(stats.lastEventIDs.prefix(3)) == ["", "0", "1"])
        #expect(stats.lastEventIDs.dropFirst(3).allSatisfy { $0 == "2" }, "\(stats.lastEventIDs)")
    }

    @Test(arguments: TransportUnderTest.all)
    func eventsCloserThanTheIdleTimeoutAreUnaffected(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "idle-ok-\(transport)-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 6, "intervalMs": 100])
        var ticks: [Int] = []
        for try await event in client.events(request, reconnecting: .never, idleTimeout: .seconds(3)) {
            ticks.append(try event.decode(Tick.self).n)
            // A slow consumer is not an idle server. Real time on purpose: the read-ahead fills at the server's
            // pace while the consumer is away, which a test clock can't make happen.
            if ticks.count == 2 { try await Task.sleep(for: .seconds(4)) }
        }
        #expect(ticks == [0, 1, 2, 3, 4, 5])
    }

    /// With an idle timeout the body is read ahead; leaving the loop while that read-ahead is full (the server
    /// writes faster than the loop reads) must still close the connection. Over AsyncHTTPClient, whose
    /// backpressure holds the server back until the client leaves: URLSession on Linux reads up to 64 MiB ahead
    /// and then ends the transfer itself, which would close the connection whether leaving the loop does or not.
    @Test(arguments: [TransportUnderTest.httpClient, .openAPIAsyncHTTPClient])
    func leavingTheLoopWithAFullReadAheadClosesTheConnection(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = "idle-leave-\(transport)-\(UUID().uuidString.prefix(8))"
        // A million events of 64 KiB (about 65 GB): the server can't finish writing before the client leaves, however
        // large the machine's socket buffers grow (loopback autotuning reaches tens of MiB), so it only stops
        // when it sees the connection close.
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 1_000_000, "pad": 65536])
        var received = 0
        for try await _ in client.events(request, reconnecting: .never, idleTimeout: .seconds(30)) {
            received += 1
            // The read-ahead fills while the loop waits, and is full again when it leaves: real time on purpose,
            // the network's pace is what fills it.
            try await Task.sleep(for: .milliseconds(300))
            if received == 2 { break }
        }
        try await eventually("the server seeing the connection close", within: .seconds(15)) {
            try await client.send(APIRequest<Stats>.get("/testing/events/\(key)/stats")).closed == 1
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func aGapLongerThanTheIdleTimeoutEndsRecordsWithTimedOut(transport: TransportUnderTest) async throws {
        struct Record: Decodable, Sendable { let n: Int }
        let client = try await transport.demoClient()
        let request = APIRequest<Record>.get("/testing/records", query: ["count": 3, "intervalMs": 3000])
        var numbers: [Int] = []
        let error = await #expect(throws: APIError.self) {
            for try await record in client.records(request, idleTimeout: .milliseconds(400)) {
                numbers.append(record.n)
            }
        }
        #expect(numbers == [0])
        #expect(error?.kind == .timedOut)
    }

    @Test func cancellingTheConsumingTaskEndsAPumpedStreamAtOnce() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "idle-cancel-\(UUID().uuidString.prefix(8))"
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 100, "intervalMs": 5000])
        let task = Task {
            var count = 0
            for try await _ in client.events(request, reconnecting: .never, idleTimeout: .seconds(30)) { count += 1 }
            return count
        }
        try await eventually("the stream open at the server") {
            try await client.send(APIRequest<Stats>.get("/testing/events/\(key)/stats")).opened == 1
        }
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        // The next event would come 5 s later; the cancellation ends the wait long before (the bound leaves room
        // for the whole suite's load).
        #expect(ContinuousClock.now - cancelled < .seconds(3))
        #expect((try? result.get()) == nil, "a cancelled stream ends with an error")
        if case .failure(let error as APIError) = result { #expect(error.kind == .cancelled) }
    }
}
