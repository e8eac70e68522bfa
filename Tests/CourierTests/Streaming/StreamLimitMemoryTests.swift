import Courier
import Foundation
import Testing

/// A stream whose line or record never ends stops at the client's limit on every transport, before the
/// transport's read-ahead does: `.bodyTooLarge` naming what passed the limit, bounded memory, and for an event
/// stream one connection, with the default reconnection policy as much as without one (a client-side limit
/// would fail the same way on every reconnection). Measured by
/// ``MemoryProbe`` in a test run of its own (`scripts/test` runs every `…MemoryTests` suite alone); the test
/// server runs in a process of its own, so the figures are the client's alone.
@Suite(
    .serialized, .timeLimit(.minutes(5)), .enabled(if: MemoryProbe.runAlone, "run by scripts/test on their own"),
    .enabled(if: MemoryProbe.canMeasure, "resident memory can't be read here"))
struct StreamLimitMemoryTests {
    /// The reconnection policies a user may leave in place or choose.
    enum Policy: String, CaseIterable, CustomTestStringConvertible {
        case `default`
        case never

        var reconnect: ReconnectPolicy { self == .default ? .default : .never }
        var testDescription: String { "\(rawValue) reconnection" }
    }

    @Test(arguments: TransportUnderTest.all, Policy.allCases)
    func anEndlessDataLineEndsAtTheLimitOnTheFirstConnection(transport: TransportUnderTest, policy: Policy)
        async throws
    {
        try await TestServers.withTestServerProcess { base in
            let client = APIClient(baseURL: base, transport: transport.make())
            let clock = ContinuousClock()
            var times: [Duration] = []
            let runs = try await MemoryProbe.peakGrowthOfTwoRuns { run throws in
                let key = "endless-line-\(transport)-\(policy)-\(run)-\(UUID().uuidString.prefix(8))"
                let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 2, "endlessLine": 1])
                var received = 0
                let started = clock.now
                let error = await #expect(throws: APIError.self) {
                    for try await _ in client.events(request, reconnecting: policy.reconnect) { received += 1 }
                }
                times.append(clock.now - started)
                #expect(received == 2, "the events before the endless line arrive")
                #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
                #expect(
                    error?.description.contains("an event-stream line grew past 10 MiB") == true,
                    "\(String(describing: error))")
                #expect(try await EventStreamTests.stats(key, client).opened == 1)
            }
            let seconds = times.map {
                String(format: "%.2f s", Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18)
            }
            print("endless data line over \(transport), \(policy.testDescription): \(runs); \(seconds)")
            #expect(runs.second.resident < 32 * MemoryProbe.mebibyte, "resident memory grew \(runs.second)")
        }
    }

    /// A record that never ends, as fast as the server can write it, in either record format.
    @Test(arguments: TransportUnderTest.all, ["jsonl", "json-seq"])
    func anEndlessRecordEndsAtTheLimit(transport: TransportUnderTest, format: String) async throws {
        struct Record: Decodable, Sendable { let n: Int }
        try await TestServers.withTestServerProcess { base in
            let client = APIClient(baseURL: base, transport: transport.make())
            let recordFormat: RecordFormat = format == "jsonl" ? .jsonLines : .jsonSequence
            let runs = await MemoryProbe.peakGrowthOfTwoRuns { _ in
                let request = APIRequest<Record>.get("/testing/records", query: ["endless": 1, "format": format])
                let error = await #expect(throws: APIError.self) {
                    for try await _ in client.records(request, format: recordFormat) {}
                }
                #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
                #expect(
                    error?.description.contains("a record grew past 10 MiB") == true, "\(String(describing: error))")
            }
            print("endless \(format) record over \(transport): \(runs)")
            #expect(runs.second.resident < 32 * MemoryProbe.mebibyte, "resident memory grew \(runs.second)")
        }
    }
}
