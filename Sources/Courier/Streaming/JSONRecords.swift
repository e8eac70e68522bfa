import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The JSON values `endpoint` streams, one `Response` per record, decoded as they arrive: JSON Lines /
    /// NDJSON (`application/jsonl`, `application/x-ndjson`) or JSON text sequences (RFC 7464,
    /// `application/json-seq`).
    ///
    /// The request goes through the whole pipeline when iteration starts, as for
    /// ``APIClient/events(_:reconnecting:idleTimeout:)``: middleware, redirects, status validation with the
    /// API's error body, time limits up to the response head, cancel-by-type until the head. Each record is
    /// decoded with the endpoint's decoder (else the client's); the endpoint's envelope is not applied to
    /// records, and the HTTP cache neither stores nor answers a stream. A record longer than `maxRecordSize`
    /// bytes, its line end included (the client's ``APIClient/Configuration/maxBodySize`` unless given), ends
    /// the sequence with ``APIError/Kind/bodyTooLarge`` (after the records before it) without being held,
    /// so a stream of any length is read in bounded memory; a record that doesn't decode ends it with
    /// ``APIError/Kind/decoding``, naming the record; after an error the sequence is over. With an
    /// `idleTimeout`, a gap longer than that between chunks ends it with ``APIError/Kind/timedOut``. Leaving
    /// the loop closes the connection.
    /// ```swift
    /// for try await line in client.records(APIRequest<LogLine>.get("/v1/logs")) {
    ///     print(line.message)
    /// }
    /// ```
    public func records<E: Endpoint>(
        _ endpoint: E, format: RecordFormat = .jsonLines, maxRecordSize: Int? = nil, idleTimeout: Duration? = nil
    ) -> JSONRecords<E.Response> where E.Response: Decodable {
        JSONRecords(
            format: format, maxRecordSize: maxRecordSize ?? pipeline.settings.limits.maxBodySize,
            idleTimeout: idleTimeout,
            decoder: pipeline.settings.responses.decoder(for: endpoint),
            time: pipeline.time
        ) { () async throws(APIError) -> OpenedStream in
            var (request, body) = try makeRequest(for: endpoint)
            if !request.headerFields.contains(.accept) { request.headerFields[.accept] = format.accept }
            return try await exchange(
                endpoint, request: request, body: body, trackedAs: endpoint, consumer: Opening(contentType: nil))
        }
    }
}

/// How the records of a stream are delimited.
public enum RecordFormat: Sendable, Hashable {
    /// JSON Lines / NDJSON: one JSON text per line, ending with LF or CR LF; blank lines are skipped and a
    /// last line without a line end counts.
    case jsonLines
    /// JSON text sequences (RFC 7464): each JSON text starts with RS (0x1E) and ends with LF; empty records
    /// are skipped, and a record that may have been truncated (a number, `true`, `false` or `null` without
    /// its final LF, §2.4) fails rather than being read as a shorter value.
    case jsonSequence

    /// The `Accept` field a request for this format sends unless the endpoint names its own.
    var accept: String {
        switch self {
        case .jsonLines: "application/jsonl, application/x-ndjson, application/json;q=0.5"
        case .jsonSequence: "application/json-seq"
        }
    }
}

/// The typed records of a streamed response (``APIClient/records(_:format:maxRecordSize:idleTimeout:)``):
/// an `AsyncSequence` that sends the request when iteration starts and throws ``APIError`` for every
/// failure, before or during the stream.
public struct JSONRecords<Value: Decodable & Sendable>: AsyncSequence, Sendable {
    /// Each element is one decoded record.
    public typealias Element = Value
    /// Every failure is an ``APIError``.
    public typealias Failure = APIError

    let format: RecordFormat
    let maxRecordSize: Int
    let idleTimeout: Duration?
    let decoder: any ResponseBodyDecoder
    /// The client's clock, for the idle timeout.
    let time: TimeSource
    let open: @Sendable () async throws(APIError) -> OpenedStream

    /// Iterates the records; make one per iteration (each sends its own request).
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }

    /// Sends the request on its first `next()`, then splits and decodes the body as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let sequence: JSONRecords
        private var started = false
        private var stream: OpenedStream?
        private var reader: StreamReader?
        private var splitter: RecordSplitter
        private var pending: [ArraySlice<UInt8>] = []
        private var nextPending = 0
        /// Records handed out so far, to name the one that fails.
        private var count = 0
        /// Body bytes read so far.
        private var bytes = 0
        /// A failure found in the middle of a chunk, thrown once the records before it are handed out.
        private var failure: APIError?
        /// The sequence has ended (or failed): `next()` returns `nil`.
        private var done = false

        init(sequence: JSONRecords) {
            self.sequence = sequence
            splitter = RecordSplitter(format: sequence.format, maxRecordSize: sequence.maxRecordSize)
        }

        /// The next record, or `nil` when the stream has ended.
        public mutating func next() async throws(APIError) -> Value? {
            if !started {
                started = true
                let opened = try await sequence.open()
                stream = opened
                if opened.response.status != .noContent, let body = opened.body {
                    reader = StreamReader(body: body, idleTimeout: sequence.idleTimeout, time: sequence.time)
                }
            }
            guard let stream, !done else { return nil }
            while nextPending == pending.count {
                pending.removeAll(keepingCapacity: true)
                nextPending = 0
                if let failure {
                    done = true
                    throw failure
                }
                guard reader != nil else {
                    done = true
                    stream.ended(nil, bytes: bytes)
                    return nil
                }
                do {
                    if let chunk = try await reader?.next() {
                        bytes += chunk.count
                        try splitter.feed(chunk, into: &pending)
                    } else {
                        reader = nil
                        try splitter.finish(into: &pending)
                    }
                } catch {
                    reader = nil
                    failure = stream.failure.receiving(error, response: stream.response)
                    stream.ended(failure, bytes: bytes)
                }
            }
            let record = pending[nextPending]
            nextPending += 1
            count += 1
            do {
                return try sequence.decoder.decode(Value.self, from: Data(record))
            } catch {
                reader = nil
                done = true
                pending.removeAll()
                let failure = stream.failure.error(
                    .decoding, phase: .decoding,
                    message: "record \(count) as \(Value.self): \(FailureContext.describe(error))", underlying: error,
                    response: stream.response, body: Data(record))
                stream.ended(failure, bytes: bytes)
                throw failure
            }
        }
    }
}

/// Splits a byte stream into JSON Lines or RFC 7464 records, holding at most one partial record (up to the
/// limit) between chunks; records that lie within one chunk are handed out without copying.
struct RecordSplitter {
    let format: RecordFormat
    let maxRecordSize: Int
    private var partial: [UInt8] = []
    /// For a JSON text sequence: whether the stream is past its first RS (bytes before it are not a record).
    private var inRecord = false

    init(format: RecordFormat, maxRecordSize: Int) {
        self.format = format
        self.maxRecordSize = maxRecordSize
    }

    /// Where the next record ends in `bytes`: at an LF for JSON Lines; for a JSON text sequence at an RS, or
    /// at an LF once the record's JSON text is complete.
    private mutating func nextEnd(in bytes: ArraySlice<UInt8>, finding finder: inout RecordBytes) -> Int? {
        guard format == .jsonSequence else {
            let end = finder.lineFeed.next(in: bytes, from: bytes.startIndex)
            return end < bytes.endIndex ? end : nil
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if !inRecord {
                // Outside a record only an RS matters.
                index = finder.separator.next(in: bytes, from: index)
            } else if scanner.isInsideString {
                // Inside a string only its closing quote, an escape, or an RS (which ends a record even there).
                index = Swift.min(
                    finder.quote.next(in: bytes, from: index), finder.backslash.next(in: bytes, from: index),
                    finder.separator.next(in: bytes, from: index))
            }
            guard index < bytes.endIndex else { return nil }
            let byte = bytes[index]
            if byte == 0x1E {
                scanner = JSONTextScanner()
                return index
            }
            if inRecord {
                scanner.scan(byte)
                if byte == 0x0A && scanner.isComplete {
                    scanner = JSONTextScanner()
                    return index
                }
            }
            index += 1
        }
        return nil
    }

    /// The bytes a record's end is found by, each searched for at most once per chunk.
    struct RecordBytes {
        var lineFeed = NextByte(0x0A)
        var separator = NextByte(0x1E)
        var quote = NextByte(UInt8(ascii: "\""))
        var backslash = NextByte(UInt8(ascii: "\\"))
    }

    /// Where the JSON text of the record being read stands, so that a JSON text sequence's record is handed
    /// out at the LF that ends it rather than when the next RS arrives.
    private var scanner = JSONTextScanner()

    /// Appends the records `chunk` completes.
    mutating func feed(_ chunk: ArraySlice<UInt8>, into records: inout [ArraySlice<UInt8>]) throws {
        var bytes = chunk
        var finder = RecordBytes()
        while let end = nextEnd(in: bytes, finding: &finder) {
            // A record ends before an RS or a JSON Lines LF, and with the LF after a complete JSON text.
            let endsAfter = bytes[end] == 0x0A && format == .jsonSequence
            let part = endsAfter ? bytes[...end] : bytes[..<end]
            if partial.isEmpty {
                try complete(part, into: &records)
            } else {
                try append(part)
                try complete(partial[...], into: &records)
                partial = []
            }
            bytes = bytes[bytes.index(after: end)...]
        }
        try append(bytes)
    }

    /// Appends the record the stream ended in the middle of, if any.
    mutating func finish(into records: inout [ArraySlice<UInt8>]) throws {
        defer { partial = [] }
        try complete(partial[...], into: &records)
    }

    private mutating func append(_ bytes: ArraySlice<UInt8>) throws {
        guard partial.count + bytes.count <= maxRecordSize else { throw RecordTooLarge(limit: maxRecordSize) }
        partial.append(contentsOf: bytes)
    }

    /// A record is complete: keep it unless it is blank.
    private mutating func complete(_ record: ArraySlice<UInt8>, into records: inout [ArraySlice<UInt8>]) throws {
        guard record.count <= maxRecordSize else { throw RecordTooLarge(limit: maxRecordSize) }
        switch format {
        case .jsonLines:
            guard record.contains(where: { !Self.isWhitespace($0) }) else { return }
            records.append(record.last == 0x0D ? record.dropLast() : record)
        case .jsonSequence:
            // What comes before the first RS isn't a record, and must be blank; after that, each RS starts one.
            guard inRecord else {
                guard !record.contains(where: { !Self.isWhitespace($0) }) else { throw NoRecordSeparator() }
                inRecord = true
                return
            }
            guard let last = record.last(where: { !Self.isWhitespace($0) }) else { return }
            // RFC 7464 §2.4: a text that isn't self-delimiting (a number, true, false, null) is truncated
            // unless whitespace follows it.
            if !Self.isWhitespace(record[record.index(before: record.endIndex)]),
                (0x30...0x39).contains(last) || (0x61...0x7A).contains(last)
            {
                throw TruncatedRecord()
            }
            records.append(record)
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// A record grew past the limit without ending.
struct RecordTooLarge: StreamFailure {
    let limit: Int
    var kind: APIError.Kind { .bodyTooLarge }
    var description: String { "a record grew past \(BodyCollector.TooLarge.text(bytes: limit)) without ending" }
}

/// A JSON text sequence with text before its first RS (0x1E): not a JSON text sequence.
struct NoRecordSeparator: StreamFailure {
    var kind: APIError.Kind { .decoding }
    var description: String { "the body is not a JSON text sequence: it has text before its first RS (0x1E)" }
}

/// Follows a JSON text byte by byte, only as far as telling when a top-level value is complete: nesting,
/// strings and their escapes, and a bare number or literal ending at whitespace.
struct JSONTextScanner {
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var started = false
    /// A top-level value has ended.
    private(set) var isComplete = false
    /// The next byte is inside a string and not escaped: only a quote or a backslash changes anything.
    var isInsideString: Bool { inString && !escaped }

    mutating func scan(_ byte: UInt8) {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if depth == 0 { isComplete = true }
            }
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            started = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            started = true
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            if depth <= 0 { isComplete = true }
        case 0x20, 0x09, 0x0A, 0x0D:
            if started && depth == 0 { isComplete = true }
        default:
            started = true
        }
    }
}

/// An RFC 7464 record that may have been cut short.
struct TruncatedRecord: StreamFailure {
    var kind: APIError.Kind { .decoding }
    var description: String { "a JSON text sequence record ended without its line feed; it may be truncated" }
}
