import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

@testable import Courier

/// JSON Lines and JSON text sequences: the splitter on its own, then end to end on every transport against
/// the demo server's `/testing/records`.
@Suite(.timeLimit(.minutes(1)))
struct RecordStreamTests {
    struct Record: Decodable, Sendable, Equatable {
        let n: Int
        var pad = ""
    }

    /// The records `input` splits into, fed whole and then `chunkSize` bytes at a time.
    func split(_ input: String, _ format: RecordFormat, chunkSize: Int? = nil, limit: Int = 1 << 20) throws
        -> [String]
    {
        var splitter = RecordSplitter(format: format, maxRecordSize: limit)
        var records: [ArraySlice<UInt8>] = []
        let bytes = Array(input.utf8)
        let size = chunkSize ?? max(bytes.count, 1)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try splitter.feed(bytes[start..<min(start + size, bytes.count)], into: &records)
        }
        try splitter.finish(into: &records)
        return records.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [nil, 1, 2, 3])
    func jsonLinesSplitsOnLFAndCRLFSkipsBlankLinesAndKeepsAnUnendedLastLine(chunkSize: Int?) throws {
        let input = "{\"n\":1}\n\n{\"n\":2}\r\n  \r\n{\"n\":3}"
        #expect(try split(input, .jsonLines, chunkSize: chunkSize) == ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"])
    }

    @Test(arguments: [nil, 1, 2])
    func jsonSequenceSplitsOnRSAndSkipsEmptyRecords(chunkSize: Int?) throws {
        let input = "\n \u{1E}{\"n\":1}\n\u{1E}\u{1E}\u{1E}[2]\n\u{1E}\"three\""
        #expect(try split(input, .jsonSequence, chunkSize: chunkSize) == ["{\"n\":1}\n", "[2]\n", "\"three\""])
    }

    @Test func textBeforeTheFirstRSIsNotAJSONTextSequence() {
        #expect(throws: NoRecordSeparator.self) { try split("{\"n\":1}\n", .jsonSequence) }
        #expect(throws: NoRecordSeparator.self) { try split("junk\u{1E}{}\n", .jsonSequence) }
    }

    /// A record is handed out at the LF that ends its JSON text, before the next RS arrives (a server may
    /// pause between records), even when the text has LFs of its own, in strings or between tokens.
    @Test(arguments: [nil, 1])
    func aJSONSequenceRecordEndsAtTheLFAfterACompleteText(chunkSize: Int?) throws {
        var splitter = RecordSplitter(format: .jsonSequence, maxRecordSize: 1024)
        var records: [ArraySlice<UInt8>] = []
        let first = Array("\u{1E}{\n  \"a\": \"x}\\\"\\n\",\n  \"b\": [1,\n 2]\n}\n".utf8)
        for start in stride(from: 0, to: first.count, by: chunkSize ?? first.count) {
            try splitter.feed(first[start..<min(start + (chunkSize ?? first.count), first.count)], into: &records)
        }
        #expect(records.count == 1, "\(records.map { String(decoding: $0, as: UTF8.self) })")
        try splitter.feed(Array("\u{1E}42\n\u{1E}\"s\"\n".utf8)[...], into: &records)
        #expect(records.map { String(decoding: $0, as: UTF8.self) }.dropFirst() == ["42\n", "\"s\"\n"])
    }

    @Test(arguments: ["\u{1E}123", "\u{1E}tru", "\u{1E}null\u{1E}{}\n"])
    func aJSONSequenceRecordThatMayBeTruncatedFails(input: String) {
        #expect(throws: TruncatedRecord.self) { try split(input, .jsonSequence) }
    }

    @Test(arguments: [RecordFormat.jsonLines, .jsonSequence], [nil, 7])
    func aRecordPastTheLimitFailsWithoutBeingHeld(format: RecordFormat, chunkSize: Int?) throws {
        let record = (format == .jsonSequence ? "\u{1E}" : "") + "{\"pad\":\"" + String(repeating: "x", count: 100)
        #expect(throws: RecordTooLarge.self) { try split(record, format, chunkSize: chunkSize, limit: 64) }
        // Exactly at the limit is fine.
        #expect(try split("\u{1E}" + String(repeating: "7", count: 63) + "\n", .jsonSequence, limit: 64).count == 1)
    }

    // MARK: - End to end

    @Test(arguments: TransportUnderTest.allWithTLS, ["jsonl", "json-seq"])
    func recordsArriveTypedAndInOrder(transport: TransportUnderTest, format: String) async throws {
        let client = try await transport.demoClient()
        let request = APIRequest<Record>.get("/testing/records", query: ["count": 2000, "pad": 40, "format": format])
        var received: [Record] = []
        for try await record in client.records(request, format: format == "jsonl" ? .jsonLines : .jsonSequence) {
            received.append(record)
        }
        #expect(received == (0..<2000).map { Record(n: $0, pad: String(repeating: "x", count: 40)) })
    }

    @Test func aJSONSequenceRecordArrivesBeforeTheNextOneStarts() async throws {
        let clock = ManualClock()
        let client = try await TransportUnderTest.httpClient.demoClient { $0.clock = clock }
        // Records 30 s apart on the server (longer than a loaded run takes to get here: at 2 s, record 1 once
        // arrived first): record 0 must arrive on its own, before the gap; then a 1 s idle timeout passes on the
        // client's clock, moved by the test.
        let request = APIRequest<Record>.get(
            "/testing/records", query: ["count": 2, "intervalMs": 30000, "format": "json-seq"])
        var reading = BackgroundRead(client.records(request, format: .jsonSequence, idleTimeout: .seconds(1))) {
            $0.n
        }
        #expect(await reading.next() == 0)
        await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        let (numbers, error) = await reading.result.value
        #expect(numbers == [0])
        #expect(error?.kind == .timedOut)
    }

    /// The demo server writes these records in one batch, so each failure is found in the same chunk as
    /// the records before it, which must still be handed out, in order, before the error.
    @Test func recordsBeforeAFailureInTheSameChunkAreHandedOutFirst() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let tooLong = APIRequest<Record>.get("/testing/records", query: ["count": 10, "pad": 10, "bigAt": 5])
        var numbers: [Int] = []
        let tooLarge = await #expect(throws: APIError.self) {
            for try await record in client.records(tooLong, maxRecordSize: 100) { numbers.append(record.n) }
        }
        #expect(numbers == [0, 1, 2, 3, 4])
        #expect(tooLarge?.kind == .bodyTooLarge)

        let broken = APIRequest<Record>.get("/testing/records", query: ["count": 100, "pad": 100, "badAt": 30])
        var iterator = client.records(broken).makeAsyncIterator()
        for expected in 0..<30 { #expect(try await iterator.next()?.n == expected) }
        let error = await #expect(throws: APIError.self) { _ = try await iterator.next() }
        #expect(error?.kind == .decoding)
        // After the failure the sequence is over.
        #expect(try await iterator.next()?.n == nil)
    }

    @Test func cancellingTheConsumerEndsRecordsWithCancelled() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let request = APIRequest<Record>.get("/testing/records", query: ["count": 100, "intervalMs": 1000])
        let (firstRecord, arrived) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            defer { arrived.finish() }
            for try await _ in client.records(request, idleTimeout: .seconds(30)) { arrived.yield() }
        }
        // The first record is in; the next is a second away.
        var records = firstRecord.makeAsyncIterator()
        await records.next()
        task.cancel()
        let result = await task.result
        guard case .failure(let error as APIError) = result else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(error.kind == .cancelled)
    }

    @Test func crlfLineEndsAreRead() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        var numbers: [Int] = []
        for try await record in client.records(
            APIRequest<Record>.get("/testing/records", query: ["count": 3, "crlf": 1]))
        {
            numbers.append(record.n)
        }
        #expect(numbers == [0, 1, 2])
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func anEndlessLineEndsWithBodyTooLarge(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        // 64 KiB every 5 ms: URLSession on Linux fails a stream that gets 64 MiB ahead of its reader, which an
        // endless loopback stream at full speed can do while the whole suite's load stalls the test.
        let request = APIRequest<Record>.get("/testing/records", query: ["endless": 1, "intervalMs": 5])
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.records(request, maxRecordSize: 256 * 1024) {}
        }
        #expect(error?.kind == .bodyTooLarge)
        #expect(error?.phase == .receiving)
        #expect(error?.description.contains("GET") == true && error?.description.contains("/testing/records") == true)
    }

    @Test func aRecordThatDoesNotDecodeEndsTheSequenceNamingIt() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let request = APIRequest<Record>.get("/testing/records", query: ["count": 5, "badAt": 3])
        var numbers: [Int] = []
        let error = await #expect(throws: APIError.self) {
            for try await record in client.records(request) { numbers.append(record.n) }
        }
        #expect(numbers == [0, 1, 2])
        #expect(error?.kind == .decoding)
        #expect(error?.message?.contains("record 4 as Record") == true, "\(error?.message ?? "")")
    }

    @Test func anUnacceptableStatusIsAnAPIErrorWithTheErrorBody() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.records(APIRequest<Record>.get("/status/404")) {}
        }
        #expect(error?.status == .notFound)
        #expect(error?.phase == .validating)
    }

    @Test func theRequestAsksForJSONLinesUnlessTheEndpointSaysOtherwise() async throws {
        struct Echo: Decodable, Sendable { let headers: [[String]] }
        let client = try await TransportUnderTest.httpClient.demoClient()
        var accepts: [String] = []
        for try await echo in client.records(APIRequest<Echo>.get("/echo")) {
            accepts += echo.headers.filter { $0.first?.lowercased() == "accept" }.map { $0.last ?? "" }
        }
        #expect(accepts.count == 1)
        #expect(accepts.first?.hasPrefix("application/jsonl") == true, "\(accepts)")
    }
}
