import CCourierZlib
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A `Content-Encoding` Courier decodes as the body streams.
enum ContentCoding: String, Sendable {
    case gzip
    case deflate

    /// The value Courier sends as `Accept-Encoding` when a request names none.
    static let accepted = "gzip, deflate"
    /// ``accepted`` as a field, made (and its value validated) once rather than for every request.
    static let acceptedField = HTTPField(name: .acceptEncoding, value: accepted)

    /// The coding a `Content-Encoding` value names: `nil` for none (absent, empty or `identity`), else the one
    /// coding, or a failure naming what Courier can't decode (an unknown coding, or more than one).
    static func of(_ response: HTTPResponse) -> Result<ContentCoding, ContentDecodingFailure>? {
        guard let header = response.headerFields.value(of: .contentEncoding) else { return nil }
        let codings = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter {
            !$0.isEmpty && $0 != "identity"
        }
        guard let name = codings.first else { return nil }
        guard codings.count == 1, let coding = name == "x-gzip" ? .gzip : ContentCoding(rawValue: name) else {
            return .failure(.unsupported(header))
        }
        return .success(coding)
    }

    /// zlib's window bits: 15, plus 16 for the gzip wrapper.
    var windowBits: Int32 { self == .gzip ? 31 : 15 }

    /// Whether `bytes` start as this coding's stream does. A URLSession-based transport decodes bodies itself
    /// and some leave `Content-Encoding` in place; their bodies don't start like this, and pass unchanged.
    func startsStream(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return true }  // too short to tell: let zlib judge
        let first = bytes[bytes.startIndex]
        let second = bytes[bytes.startIndex + 1]
        switch self {
        case .gzip: return first == 0x1f && second == 0x8b
        // A zlib header: method 8, a window of at most 32 KiB, no preset dictionary, and the check bits.
        case .deflate:
            return first & 0x0f == 8 && first >> 4 <= 7 && second & 0x20 == 0
                && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        }
    }
}

/// A compressed body Courier could not decode.
enum ContentDecodingFailure: Error, CustomStringConvertible {
    case unsupported(String)
    case corrupt(ContentCoding, String)
    case truncated(ContentCoding)

    var description: String {
        switch self {
        case .unsupported(let header):
            "the response is encoded as \"\(header)\", which Courier does not decode (it decodes gzip and deflate)"
        case .corrupt(let coding, let reason): "the \(coding.rawValue) body is corrupt (\(reason))"
        case .truncated(let coding): "the \(coding.rawValue) body ends before its compressed data does"
        }
    }
}

/// A body decoded from `coding` as it streams, in steps of at most 64 KiB, so a body that inflates a
/// thousandfold (a "gzip bomb") costs no more memory than the reader keeps and stops at the reader's limit.
struct DecodedChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let base: HTTPBody
    let coding: ContentCoding

    static let step = 64 * 1024

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let coding: ContentCoding
        var inflater: Inflater?
        var pending: ArraySlice<UInt8> = []
        var started = false
        var passThrough = false
        var ended = false
        /// The last step filled its output: zlib may hold more output without needing input.
        var full = false

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            while true {
                if pending.isEmpty && !full {
                    guard let chunk = try await base.next() else {
                        if started && !ended && !passThrough { throw ContentDecodingFailure.truncated(coding) }
                        return nil
                    }
                    pending = chunk
                    if pending.isEmpty { continue }
                }
                if !started {
                    started = true
                    passThrough = !coding.startsStream(pending)
                    if !passThrough { inflater = try Inflater(coding) }
                }
                guard let inflater, !passThrough else {
                    defer { pending = [] }
                    return pending
                }
                if ended && !pending.isEmpty {
                    // Concatenated gzip members decode as one body (RFC 1952); anything else after the end is
                    // not part of the stream.
                    guard coding == .gzip, coding.startsStream(pending) else {
                        throw ContentDecodingFailure.corrupt(coding, "data after the end of the compressed stream")
                    }
                    try inflater.reset()
                    ended = false
                }
                let step = try inflater.inflate(&pending, upTo: DecodedChunks.step)
                ended = step.ended
                full = !step.ended && step.output.count == DecodedChunks.step
                if !step.output.isEmpty { return step.output[...] }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), coding: coding)
    }
}

/// One zlib inflate stream. Not thread-safe: one iterator owns it.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let coding: ContentCoding

    init(_ coding: ContentCoding) throws {
        self.coding = coding
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // On failure `deinit` still runs (every property is set): it ends and frees the stream.
        guard courier_inflate_init(stream, coding.windowBits) == Z_OK else {
            throw ContentDecodingFailure.corrupt(coding, "zlib could not start")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Starts a new stream (the next gzip member).
    func reset() throws {
        guard inflateReset(stream) == Z_OK else { throw ContentDecodingFailure.corrupt(coding, "zlib could not reset") }
    }

    /// Inflates from the front of `input` (removing what it consumed) into at most `limit` new bytes.
    func inflate(_ input: inout ArraySlice<UInt8>, upTo limit: Int) throws -> (output: [UInt8], ended: Bool) {
        var result: Int32 = Z_OK
        var consumed = 0
        // Room for `limit` bytes, of which only what zlib writes is ever initialised (no zero-filling).
        let output = [UInt8](unsafeUninitializedCapacity: limit) { out, initialized in
            initialized = input.withUnsafeBytes { source in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: source.baseAddress?.assumingMemoryBound(to: Bytef.self))
                stream.pointee.avail_in = uInt(source.count)
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = uInt(out.count)
                result = CCourierZlib.inflate(stream, Z_NO_FLUSH)
                consumed = source.count - Int(stream.pointee.avail_in)
                stream.pointee.next_in = nil
                stream.pointee.next_out = nil
                return out.count - Int(stream.pointee.avail_out)
            }
        }
        input = input.dropFirst(consumed)
        switch result {
        case Z_OK, Z_STREAM_END:
            return (output, result == Z_STREAM_END)
        case Z_BUF_ERROR where consumed == 0 && output.isEmpty && input.isEmpty:
            return ([], false)  // needs more input
        default:
            let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
            throw ContentDecodingFailure.corrupt(coding, reason)
        }
    }
}
