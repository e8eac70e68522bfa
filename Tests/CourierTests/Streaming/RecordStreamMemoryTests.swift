import Courier
import Foundation
import Testing

/// A gibibyte of JSON Lines is read record by record in bounded memory on every transport, measured by
/// ``MemoryProbe`` in a test run of its own (`scripts/test` runs every `…MemoryTests` suite alone). The demo
/// server runs in a process of its own, so the figures are the client's alone.
@Suite(
    .serialized, .timeLimit(.minutes(5)), .enabled(if: MemoryProbe.runAlone, "run by scripts/test on their own"),
    .enabled(if: MemoryProbe.canMeasure, "resident memory can't be read here"))
struct RecordStreamMemoryTests {
    struct Record: Decodable, Sendable {
        let n: Int
        let pad: String
    }

    /// 16,384 records of 64 KiB of padding each: 1 GiB and a little more of JSON Lines.
    static let count = 16_384
    static let pad = 64 * 1024

    @Test(arguments: TransportUnderTest.all)
    func aGibibyteOfJSONLinesIsReadWithBoundedMemory(transport: TransportUnderTest) async throws {
        try await TestServers.withTestServerProcess { base in
            let client = APIClient(baseURL: base, transport: transport.make())
            let runs = try await MemoryProbe.peakGrowthOfTwoRuns { run in
                // The warm-up reads an eighth; the measured run the whole gibibyte.
                let count = run == 1 ? MemoryProbe.warmUpShare(of: Self.count) : Self.count
                let request = APIRequest<Record>.get(
                    "/testing/records",
                    query: ["count": count, "pad": Self.pad, "intervalMs": Self.interval(over: transport)])
                var expected = 0
                var bytes = 0
                for try await record in client.records(request) {
                    guard record.n == expected, record.pad.utf8.count == Self.pad else {
                        Issue.record("record \(expected) arrived as n = \(record.n), \(record.pad.utf8.count) bytes")
                        return
                    }
                    expected += 1
                    bytes += record.pad.utf8.count
                }
                #expect(expected == count)
                #expect(bytes >= count * Self.pad)
            }
            print("1 GiB of JSON Lines (128 MiB to warm up) over \(transport): \(runs)")
            let bound = Self.bound(over: transport)
            #expect(runs.second.resident < bound, "resident memory grew \(runs.second)")
            if let allocated = runs.second.allocated {
                #expect(allocated < bound, "the allocator handed out \(runs.second)")
            }
        }
    }

    /// Milliseconds between records: 1 over URLSession on Linux (64 MiB/s at most), else none. libcurl can't
    /// be paused, and over loopback it delivered this gibibyte faster than a debug build decodes it, now and
    /// then by more than the transport's 64 MiB read-ahead, which then ends the stream (`ReadAheadExceeded`,
    /// pinned by `ReaderPaceConformanceTests`); a real network is rarely that much faster than its reader.
    static func interval(over transport: TransportUnderTest) -> Int {
        #if os(Linux)
            if transport == .urlSession { return 1 }
        #endif
        return 0
    }

    /// 32 MiB, except over URLSession on Linux: libcurl has no backpressure, so Courier's transport may read up
    /// to its `readAheadLimit` (64 MiB) ahead of a slower reader; unpaced it measured 19–72 MiB there, paced
    /// (``interval(over:)``) 0–4 MiB. Over AsyncHTTPClient, which holds the server back, 0–5 MiB.
    static func bound(over transport: TransportUnderTest) -> Int64 {
        #if os(Linux)
            if transport == .urlSession { return 80 * MemoryProbe.mebibyte }
        #endif
        return 32 * MemoryProbe.mebibyte
    }
}
