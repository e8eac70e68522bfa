import Foundation
import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's life on a `URLSessionTask`: the response head it waits for, the body bytes it buffers for
/// the reader (bounded), and its cancellation from any side.
///
/// Every decision is made under one lock, and the `URLSessionTask.suspend()`/`resume()` calls the delegate and
/// the reader decide are made under it too, so a suspension can never land after the resumption meant to undo
/// it (a task suspended for good). A cancellation records the end first, so no later suspension or resumption
/// follows it. Continuations are resumed outside the lock.
///
/// The reader takes everything that waits in one chunk, so a reader that is slower per chunk than URLSession
/// catches up by taking more at a time. What may wait is bounded: on Apple platforms the task is suspended
/// past `bufferSize` unread bytes; FoundationNetworking can't pause a transfer, so there the transfer fails
/// past `readAheadLimit` (see ``ReadAheadExceeded``).
final class TaskExchange: Sendable {
    private struct State {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var response: HTTPURLResponse?
        var headFailure: (any Error)?
        /// The reader waiting for bytes.
        var reader: CheckedContinuation<HTTPBody.ByteChunk?, any Error>?
        /// Bytes received and not yet taken, and how many.
        var pending: [Data] = []
        var unread = 0
        /// How the body ended, once it has: `nil` for a clean end, else the error the reader gets after
        /// the bytes that wait.
        var end: (any Error)??
        var completed = false
        var suspended = false
    }

    private let task: URLSessionTask
    private let bufferSize: Int
    private let readAheadLimit: Int
    private let spooledFile: URL?
    private let state = Mutex(State())

    init(task: URLSessionTask, bufferSize: Int, readAheadLimit: Int, spooledFile: URL?) {
        self.task = task
        self.bufferSize = bufferSize
        self.readAheadLimit = readAheadLimit
        self.spooledFile = spooledFile
    }

    /// The response body as the reader sees it; make it once, since dropping it before its end cancels the
    /// task.
    func makeBody() -> Chunks { Chunks(reader: Reader(exchange: self)) }

    /// Starts the task and waits for the response head (a 3xx included: redirects are never followed).
    func responseHead() async throws -> HTTPURLResponse {
        try await withCheckedThrowingContinuation { continuation in
            let early: Result<HTTPURLResponse, any Error>? = state.withLock { state in
                if let response = state.response { return .success(response) }
                if let failure = state.headFailure { return .failure(failure) }
                state.head = continuation
                return nil
            }
            if let early { continuation.resume(with: early) } else { task.resume() }
        }
    }

    /// The Swift task was cancelled, or the reader went away before the end: stop the transfer, fail whoever
    /// waits, and drop what was buffered.
    func cancel() {
        let (head, reader) = state.withLock { state in
            if state.response == nil && state.headFailure == nil { state.headFailure = CancellationError() }
            // Bytes dropped here make even a finished body end in an error, never a clean, short one.
            if state.end == nil || !state.pending.isEmpty { state.end = .some(CancellationError()) }
            state.pending = []
            state.unread = 0
            defer { (state.head, state.reader) = (nil, nil) }
            return (state.head, state.reader)
        }
        stopTask()
        head?.resume(throwing: CancellationError())
        reader?.resume(throwing: CancellationError())
    }

    /// Cancels the URLSession task without waiting for it. FoundationNetworking's `cancel()` (Swift 6.3)
    /// waits for the session's work queue, which libcurl can keep busy reading a fast connection for hundreds
    /// of milliseconds; called on the delegate queue, that wait stopped the deliveries it would have dropped
    /// while libcurl went on queuing them (measured: 360 MiB queued for a 16 MiB read-ahead limit), and
    /// called from a reader, it blocked a thread of the cooperative pool.
    private func stopTask() {
        #if canImport(FoundationNetworking)
            Self.cancellations.async { [task] in task.cancel() }
        #else
            task.cancel()
        #endif
    }

    #if canImport(FoundationNetworking)
        /// Where ``stopTask()`` waits. A queue of its own gets a thread of its own (it is overcommitting):
        /// on a global queue the cancellation waited behind the session's own work on a 2-core machine, and a
        /// gzip bomb decoded 50–160 MiB of deliveries meanwhile.
        private static let cancellations = DispatchQueue(label: "Courier.StreamingURLSessionTransport.cancel")
    #endif

    // MARK: Delegate events (on the session's serial delegate queue)

    func received(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else {
            stopTask()  // not HTTP: completes with an error
            return
        }
        let head = state.withLock { state -> CheckedContinuation<HTTPURLResponse, any Error>? in
            guard state.response == nil, state.headFailure == nil else { return nil }
            state.response = http
            defer { state.head = nil }
            return state.head
        }
        head?.resume(returning: http)
    }

    func received(_ data: Data) {
        let waiting = state.withLock { state -> CheckedContinuation<HTTPBody.ByteChunk?, any Error>? in
            // Cancelled or failed: the bytes have nowhere to go.
            guard state.end == nil, !data.isEmpty else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            state.pending.append(data)
            state.unread += data.count
            #if canImport(FoundationNetworking)
                if state.unread > readAheadLimit {
                    // Resuming a suspended task restarts the transfer from byte 0 here, so the transfer fails.
                    state.end = .some(ReadAheadExceeded(limit: readAheadLimit))
                    state.pending = []
                    state.unread = 0
                    stopTask()
                }
            #else
                if state.unread > bufferSize && !state.suspended && !state.completed {
                    state.suspended = true
                    task.suspend()
                }
            #endif
            return nil
        }
        waiting?.resume(returning: ArraySlice(data))
    }

    func completed(with error: (any Error)?) {
        if let spooledFile { try? FileManager.default.removeItem(at: spooledFile) }
        let (head, headFailure, reader, end) = state.withLock { state in
            state.completed = true
            if state.response == nil && state.headFailure == nil {
                state.headFailure = error ?? URLError(.badServerResponse)
            }
            if state.end == nil { state.end = .some(state.response == nil ? state.headFailure : error) }
            defer { (state.head, state.reader) = (nil, nil) }
            return (state.head, state.headFailure, state.reader, state.end ?? nil)
        }
        if let head { head.resume(throwing: headFailure ?? URLError(.badServerResponse)) }
        if let reader {
            if let end { reader.resume(throwing: end) } else { reader.resume(returning: nil) }
        }
    }

    /// The next bytes: all that wait, in one chunk, or the next that arrive; `nil` at a clean end.
    fileprivate func next() async throws -> HTTPBody.ByteChunk? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<HTTPBody.ByteChunk?, any Error>? in
                    if !state.pending.isEmpty { return .success(take(&state)) }
                    // A transfer stopped for reading too slowly ends for the reader only once URLSession has
                    // completed it: the deliveries queued before the completion have been dropped by then, so
                    // whoever continues the transfer does not queue behind them. It always completes:
                    // FoundationNetworking (6.3) completes a cancelled task exactly once, through
                    // `didCompleteWithError`, whether it had started or not, and a cancelled reader stops waiting.
                    if let end = state.end, state.completed || !(end is ReadAheadExceeded) {
                        return end.map { .failure($0) } ?? .success(nil)
                    }
                    state.reader = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Takes the waiting bytes as one chunk of up to `takeLimit` bytes (whole deliveries, at least one), and
    /// lets a suspended task go on once at most half the buffer waits (Apple platforms).
    private func take(_ state: inout State) -> HTTPBody.ByteChunk {
        var count = 0
        var taken = 0
        for data in state.pending {
            if taken > 0 && count + data.count > Self.takeLimit { break }
            count += data.count
            taken += 1
        }
        var chunk = HTTPBody.ByteChunk()
        chunk.reserveCapacity(count)
        for data in state.pending[..<taken] {
            data.withUnsafeBytes { chunk.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        }
        state.pending.removeFirst(taken)
        state.unread -= count
        if state.suspended && state.unread <= bufferSize / 2 {
            state.suspended = false
            if !state.completed { task.resume() }
        }
        return chunk
    }

    /// The most bytes one read takes: enough that a reader's cost per chunk is small next to URLSession's
    /// per delivery, small enough that copying them into one chunk costs little memory.
    static let takeLimit = 1024 * 1024

    /// The reader went away: stop a transfer it did not read to the end.
    fileprivate func readerGone() {
        if state.withLock({ $0.end == nil }) { cancel() }
    }

    /// Holds the exchange for the body's reader; when the last copy of the body goes, so does the transfer.
    fileprivate final class Reader: Sendable {
        let exchange: TaskExchange
        init(exchange: TaskExchange) { self.exchange = exchange }
        deinit { exchange.readerGone() }
    }

    /// The response body's bytes.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk
        fileprivate let reader: Reader

        struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate let reader: Reader
            mutating func next() async throws -> HTTPBody.ByteChunk? { try await reader.exchange.next() }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }
    }
}

/// A URLSession transfer on Linux failed because its reader fell too far behind: FoundationNetworking can't
/// pause a transfer, so ``StreamingURLSessionTransport`` stops it rather than hold an unbounded body.
public struct ReadAheadExceeded: Error, CustomStringConvertible, Sendable {
    /// The transport's `readAheadLimit`: it held this many unread bytes, plus the delivery that passed it.
    public let limit: Int

    /// What happened and what to do, in words.
    public var description: String {
        "the reader fell more than \(BodyCollector.TooLarge.text(bytes: limit)) behind the network, and URLSession "
            + "on Linux cannot pause a transfer; read faster, raise readAheadLimit, or use HTTPClientTransport "
            + "(APIClient.download continues such a transfer by itself where the server accepts ranges)"
    }
}
