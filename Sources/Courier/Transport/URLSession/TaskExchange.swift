import Foundation
import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's life on a `URLSessionTask`: the response head it waits for, the body chunks it streams with
/// backpressure, and its cancellation from any side.
///
/// Every decision is made under one lock, and `URLSessionTask.suspend()`/`resume()`/`cancel()` are called
/// under it too, so a suspension decided by the delegate can never land after the resumption the reader
/// decided (a task suspended for good). Both calls are thread-safe and never call back into this type
/// synchronously.
final class TaskExchange: Sendable {
    private struct State {
        var head: CheckedContinuation<HTTPURLResponse, any Error>?
        var response: HTTPURLResponse?
        var failure: (any Error)?
        var cancelled = false
        var completed = false
        var unread = 0
        var suspended = false
        /// URLSession reported the end of the body with no error.
        var endedCleanly = false
    }

    private let task: URLSessionTask
    private let bufferSize: Int
    private let spooledFile: URL?
    private let state = Mutex(State())
    /// Only the writing end: the reading end lives in the body, so dropping the body ends the stream.
    private let source: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.Continuation

    private init(
        task: URLSessionTask, bufferSize: Int, spooledFile: URL?,
        source: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.Continuation
    ) {
        self.task = task
        self.bufferSize = bufferSize
        self.spooledFile = spooledFile
        self.source = source
    }

    /// The exchange for `task`, and the response body it will stream (read once; each chunk is counted out
    /// of the buffer when taken).
    static func make(task: URLSessionTask, bufferSize: Int, spooledFile: URL?) -> (TaskExchange, Chunks) {
        let (stream, source) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
        source.onTermination = { [task] termination in
            // The reader dropped the body before its end, or its task was cancelled: stop the transfer.
            if case .cancelled = termination { task.cancel() }
        }
        let exchange = TaskExchange(task: task, bufferSize: bufferSize, spooledFile: spooledFile, source: source)
        return (exchange, Chunks(base: stream, exchange: exchange))
    }

    /// Starts the task and waits for the response head (a 3xx included: redirects are never followed).
    func responseHead() async throws -> HTTPURLResponse {
        try await withCheckedThrowingContinuation { continuation in
            let early: Result<HTTPURLResponse, any Error>? = state.withLock { state in
                if state.cancelled { return .failure(CancellationError()) }
                if let response = state.response { return .success(response) }
                if let failure = state.failure { return .failure(failure) }
                state.head = continuation
                return nil
            }
            if let early { continuation.resume(with: early) } else { task.resume() }
        }
    }

    /// The Swift task was cancelled: fail the wait for the head now, whatever URLSession does next.
    func cancel() {
        let head = state.withLock { state in
            state.cancelled = true
            defer { state.head = nil }
            return state.head
        }
        task.cancel()
        head?.resume(throwing: CancellationError())
    }

    // MARK: Delegate events (on the session's serial delegate queue)

    func received(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else {
            task.cancel()  // not HTTP: completes with an error
            return
        }
        let head = state.withLock { state -> CheckedContinuation<HTTPURLResponse, any Error>? in
            guard state.response == nil else { return nil }
            state.response = http
            defer { state.head = nil }
            return state.head
        }
        head?.resume(returning: http)
    }

    func received(_ data: Data) {
        source.yield(ArraySlice(data))
        #if !canImport(FoundationNetworking)
            state.withLock { state in
                state.unread += data.count
                if state.unread > bufferSize && !state.suspended && !state.completed {
                    state.suspended = true
                    task.suspend()
                }
            }
        #endif
        // FoundationNetworking (Linux) can't pause a transfer: suspending removes libcurl's handle, and resuming
        // adds it back as a new transfer, which sends the request again and restarts the body at byte 0. There
        // the body is read as fast as it arrives, and the reader's limit (Courier's body limit) bounds it.
    }

    func completed(with error: (any Error)?) {
        if let spooledFile { try? FileManager.default.removeItem(at: spooledFile) }
        let head = state.withLock { state in
            state.completed = true
            state.endedCleanly = error == nil && state.response != nil
            if state.response == nil {
                state.failure = state.cancelled ? CancellationError() : error ?? URLError(.badServerResponse)
            }
            defer { state.head = nil }
            return state.head.map { ($0, state.failure ?? URLError(.badServerResponse)) }
        }
        if let (continuation, failure) = head { continuation.resume(throwing: failure) }
        source.finish(throwing: error)
    }

    /// Whether the body ended because URLSession finished it (and not because the stream was cancelled).
    fileprivate var endedCleanly: Bool { state.withLock { $0.endedCleanly } }

    /// The reader took `count` bytes: resume the task once at most half the buffer waits (Apple platforms;
    /// FoundationNetworking never suspends, see `received(_:)`).
    fileprivate func read(_ count: Int) {
        #if !canImport(FoundationNetworking)
            state.withLock { state in
                state.unread -= count
                if state.suspended && state.unread <= bufferSize / 2 {
                    state.suspended = false
                    if !state.completed { task.resume() }
                }
            }
        #endif
    }

    /// The body as the reader sees it: the stream's chunks, each counted out of the buffer when taken.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = HTTPBody.ByteChunk
        let base: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>
        let exchange: TaskExchange

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.AsyncIterator
            let exchange: TaskExchange

            mutating func next() async throws -> HTTPBody.ByteChunk? {
                guard let chunk = try await base.next() else {
                    // A stream cancelled with its reader's task ends like a finished one: say it was cut short.
                    if !exchange.endedCleanly { throw CancellationError() }
                    return nil
                }
                exchange.read(chunk.count)
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator(), exchange: exchange)
        }
    }
}
