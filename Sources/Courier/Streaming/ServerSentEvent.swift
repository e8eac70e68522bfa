public import Foundation

/// One event of a `text/event-stream` (server-sent events), as the WHATWG HTML standard's parsing rules
/// dispatch it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field; `message` when the event named none.
    public var type: String
    /// The `data` fields joined with line feeds.
    public var data: String
    /// The last event ID in effect when it was dispatched (`id` fields persist across events); empty when
    /// none was set.
    public var lastEventID: String
    /// The reconnection time the stream asked for (`retry`) by the time of this event, if any.
    public var retry: Duration?

    /// An event.
    public init(type: String = "message", data: String, lastEventID: String = "", retry: Duration? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }

    /// `data` decoded as JSON into `type`.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws
        -> Value
    {
        try decoder.decode(type, from: Data(data.utf8))
    }
}

/// The incremental parser of `text/event-stream` bytes (WHATWG HTML, "Parsing an event stream"): lines end
/// with CR LF, LF or CR (a CR at the end of one chunk and an LF at the start of the next make one line end);
/// a byte-order mark is stripped once, at the very start; lines are decoded as UTF-8 only once complete, so
/// characters split across chunks arrive whole; `id` values containing NUL are ignored; `retry` takes
/// ASCII digits only; a partial event at the end of the stream is discarded.
struct ServerSentEventParser {
    /// What a chunk of input produced, in order.
    enum Output: Equatable {
        case event(ServerSentEvent)
        case comment(String)
    }

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    /// The last event ID string: the ID buffer as of the latest dispatch (an `id` takes effect only with
    /// the blank line that ends its event).
    private var lastEventID = ""
    private var idBuffer = ""
    private var retry: Duration?
    /// Bytes of a possible BOM seen at the start (0...3), or `nil` once past the start.
    private var bomBytesSeen: Int? = 0
    /// The previous byte was a CR, so an LF now only completes that line end.
    private var afterCR = false
    /// The longest line kept; a longer one fails the stream (see ``LineTooLong``).
    let maxLineLength: Int

    init(maxLineLength: Int = 1 << 20) {
        self.maxLineLength = maxLineLength
    }

    /// The events and comments `bytes` complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [Output] {
        try feed(ArraySlice(bytes))
    }

    /// The events and comments `chunk` completes.
    mutating func feed(_ chunk: ArraySlice<UInt8>) throws -> [Output] {
        var outputs: [Output] = []
        try feed(chunk, into: &outputs)
        return outputs
    }

    /// Appends the events and comments `chunk` completes to `outputs`; those before a line past the limit are
    /// appended before it throws. Lines are found a run of bytes at a time; a line is copied only when it
    /// spans chunks.
    mutating func feed(_ chunk: ArraySlice<UInt8>, into outputs: inout [Output]) throws {
        var bytes = chunk
        while let seen = bomBytesSeen, let byte = bytes.first {
            if byte == Self.bom[seen] {
                bomBytesSeen = seen + 1 == 3 ? nil : seen + 1
                bytes = bytes.dropFirst()
            } else {
                // Not a BOM after all: the bytes held back belong to the first line.
                line.append(contentsOf: Self.bom[0..<seen])
                bomBytesSeen = nil
            }
        }
        if afterCR, let first = bytes.first {
            afterCR = false
            if first == 0x0A { bytes = bytes.dropFirst() }
        }
        var lineFeed = NextByte(0x0A)
        var carriageReturn = NextByte(0x0D)
        while !bytes.isEmpty {
            let start = bytes.startIndex
            let end = Swift.min(lineFeed.next(in: chunk, from: start), carriageReturn.next(in: chunk, from: start))
            guard end < bytes.endIndex else {
                guard line.count + bytes.count <= maxLineLength else { throw LineTooLong(limit: maxLineLength) }
                line.append(contentsOf: bytes)
                break
            }
            let part = bytes[..<end]
            guard line.count + part.count <= maxLineLength else { throw LineTooLong(limit: maxLineLength) }
            let output: Output?
            if line.isEmpty {
                output = try endLine(part)
            } else {
                line.append(contentsOf: part)
                output = try endLine(line[...])
                line.removeAll(keepingCapacity: true)
            }
            if let output { outputs.append(output) }
            var next = bytes.index(after: end)
            if bytes[end] == 0x0D {
                // CR LF is one line end; a CR that ends the chunk may be followed by the next chunk's LF.
                if next == bytes.endIndex {
                    afterCR = true
                } else if bytes[next] == 0x0A {
                    next = bytes.index(after: next)
                }
            }
            bytes = bytes[next...]
        }
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Processes a complete line (without its line end).
    private mutating func endLine(_ line: ArraySlice<UInt8>) throws -> Output? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") {
            return .comment(String(decoding: line.dropFirst(), as: UTF8.self))
        }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        if name.elementsEqual("data".utf8) {
            if hasData { data.append(0x0A) }
            // An event whose data never ends grows no further than a line may.
            guard data.count + value.count <= maxLineLength else {
                throw LineTooLong(limit: maxLineLength, part: .data)
            }
            data.append(contentsOf: value)
            hasData = true
        } else if name.elementsEqual("event".utf8) {
            eventType = Array(value)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int64(String(decoding: value, as: UTF8.self))
            {
                retry = .milliseconds(milliseconds)
            }
        }
        return nil
    }

    /// An empty line: the event gathered so far, if it has data.
    private mutating func dispatch() -> Output? {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType.removeAll(keepingCapacity: true)
        }
        guard hasData else { return nil }
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        return .event(
            ServerSentEvent(
                type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID, retry: retry))
    }

    /// Prepares for the body of a new connection: what a dropped connection left half-read is discarded;
    /// the last event ID and the reconnection time stay, as the standard says.
    mutating func startNewConnection() {
        line.removeAll(keepingCapacity: true)
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType.removeAll(keepingCapacity: true)
        afterCR = false
        bomBytesSeen = 0
        idBuffer = lastEventID  // an id of an event the drop cut off never took effect
    }

    /// The last event ID in effect, for a reconnection's `Last-Event-ID`.
    var currentLastEventID: String { lastEventID }

    /// The reconnection time the stream asked for, if any.
    var reconnectionTime: Duration? { retry }
}

/// A line of an event stream, or an event's data, grew past the parser's limit.
struct LineTooLong: StreamFailure {
    /// What grew past the limit.
    enum Part {
        /// One line, before its line end arrived.
        case line
        /// An event's `data` (its `data:` lines together), before the event ended.
        case data
    }

    let limit: Int
    var part = Part.line
    var kind: APIError.Kind { .bodyTooLarge }
    var description: String {
        let limit = BodyCollector.TooLarge.text(bytes: limit)
        return switch part {
        case .line: "an event-stream line grew past \(limit) without ending"
        case .data: "an event-stream event's data grew past \(limit) before the event ended"
        }
    }
}
