import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// A response body as the pipeline hands it on: one single-pass stream, read once by whichever reader takes
/// it. It holds either an `HTTPBody` or, from a transport that keeps them (``BufferingTransport``), the
/// transport's own buffers, which `send` collects and downloads write to their file without `HTTPBody`'s
/// iterator layers. A reader that needs an `HTTPBody` (middleware, content decoding, streams) gets one over
/// the same buffers; there is never a second reader of the same bytes beside it.
struct ResponseBody: Sendable {
    private enum Storage: Sendable {
        case stream(HTTPBody)
        case buffers(ResponseBuffers)
    }

    private let storage: Storage
    /// The length the response declares, if any.
    let length: HTTPBody.Length

    /// `body`, read through its iterator.
    init(_ body: HTTPBody) {
        storage = .stream(body)
        length = body.length
    }

    /// A transport's own buffers, of the declared `length`.
    init(buffers: ResponseBuffers, length: HTTPBody.Length) {
        storage = .buffers(buffers)
        self.length = length
    }

    /// The body as an `HTTPBody`: the one it holds, or one over its buffers.
    var httpBody: HTTPBody {
        switch storage {
        case .stream(let body): body
        case .buffers(let buffers): buffers.httpBody(length: length)
        }
    }

    /// The body as an `HTTPBody` for a reader that may give it back (a middleware), with a mark that tells
    /// whether it began reading: only a body given back unread may then be read as the buffers it was made
    /// from (AsyncHTTPClient's stream allows one iterator only).
    func handOut() -> HandedOutBody {
        switch storage {
        case .stream(let body):
            return (body, nil)
        case .buffers(let buffers):
            let mark = ReadMark()
            let chunks = MarkedChunks(base: buffers.httpBody(length: length), mark: mark)
            return (HTTPBody(chunks, length: length, iterationBehavior: .single), mark)
        }
    }

    /// The whole body as one `Data`, copying the bytes once (see ``BodyCollector``).
    func collect(limit: Int, decodedFrom coding: ContentCoding? = nil) async throws -> Data {
        switch storage {
        case .stream(let body):
            return try await BodyCollector.collect(body, limit: limit, decodedFrom: coding)
        case .buffers(let buffers):
            // The buffers are the body's own bytes, never decoded: content decoding reads `httpBody`.
            return try await BodyCollector.collect(buffers, length: length, limit: limit)
        }
    }

    /// Hands each piece of the body to `write`, in order, until it ends: the transport's buffers as they are,
    /// or the `HTTPBody`'s chunks.
    func read(_ write: (UnsafeRawBufferPointer) throws -> Void) async throws {
        switch storage {
        case .stream(let body):
            for try await chunk in body { try chunk.withUnsafeBytes(write) }
        case .buffers(let buffers):
            try await buffers.read(write)
        }
    }

    /// Reads and drops up to 64 KiB of `body` (a redirect's, an error's), so the connection can serve the next
    /// request; a longer body is abandoned.
    static func discard(_ body: ResponseBody?) async {
        _ = try? await body?.collect(limit: 64 * 1024)
    }
}

/// A body as ``ResponseBody/handOut()`` gave it to a middleware, and what tells whether it began to be read.
typealias HandedOutBody = (body: HTTPBody, mark: ReadMark?)

/// Whether a handed-out body began to be read (see ``ResponseBody/handOut()``).
final class ReadMark: Sendable {
    private let started = Atomic<Bool>(false)

    /// Whether an iterator was made.
    var hasStarted: Bool { started.load(ordering: .acquiring) }

    fileprivate func start() { started.store(true, ordering: .releasing) }
}

/// A body's chunks that mark when they begin to be read.
private struct MarkedChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let base: HTTPBody
    let mark: ReadMark

    func makeAsyncIterator() -> HTTPBody.AsyncIterator {
        mark.start()
        return base.makeAsyncIterator()
    }
}

extension ResponseBody {
    /// The length of the body a transport hands back for a response to `method` with `fields`: `nil` (no body)
    /// for `HEAD`, `CONNECT` and `TRACE`, else what `Content-Length` declares (unknown without one).
    static func length(for method: HTTPRequest.Method, fields: HTTPFields) -> HTTPBody.Length? {
        switch method {
        case .head, .connect, .trace: return nil
        default:
            // One pass over the fields (`value(of:)`), not `HTTPFields`' generic subscript.
            let length = fields.value(of: .contentLength).flatMap { Int64($0) }
            return length.map { .known($0) } ?? .unknown
        }
    }
}

extension HTTPBody {
    /// The body a transport hands back for a response to `method`: none for `HEAD`, `CONNECT` and `TRACE`,
    /// else `chunks`, read once, with the length `Content-Length` declares (unknown without one).
    static func response<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, to method: HTTPRequest.Method, fields: HTTPFields
    ) -> HTTPBody? where Chunks.Element == ByteChunk {
        guard let length = ResponseBody.length(for: method, fields: fields) else { return nil }
        return HTTPBody(chunks, length: length, iterationBehavior: .single)
    }
}
