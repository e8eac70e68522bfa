import Foundation
import OpenAPIRuntime
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's life on a `URLSessionTask`: the response head it waits for, the body bytes it buffers for
/// the reader (bounded), and its cancellation from any side.
///
/// Every decision is a ``TaskExchangeStateMachine`` transition under one lock, and the
/// `URLSessionTask.suspend()`/`resume()` calls the delegate and the reader decide are made under it too, so a
/// suspension can never land after the resumption meant to undo it (a task suspended for good); only the first
/// `resume()`, which starts the task, follows its decision, as nothing suspends a task not started. A
/// cancellation records the end first, so no later suspension or resumption follows it. Continuations are
/// resumed outside the lock.
///
/// The reader takes everything that waits in one chunk, so a reader that is slower per chunk than URLSession
/// catches up by taking more at a time. What may wait is bounded: on Apple platforms the task is suspended
/// past `bufferSize` unread bytes; FoundationNetworking can't pause a transfer, so there the transfer fails
/// past `readAheadLimit` (see ``ReadAheadExceeded``).
final class TaskExchange: Sendable {
    private typealias Machine = TaskExchangeStateMachine<
        HTTPURLResponse, CheckedContinuation<HTTPURLResponse, any Error>,
        CheckedContinuation<HTTPBody.ByteChunk?, any Error>
    >

    private let task: URLSessionTask
    private let spooledFile: URL?
    private let state: Mutex<Machine>

    init(task: URLSessionTask, bufferSize: Int, readAheadLimit: Int, spooledFile: URL?) {
        self.task = task
        self.spooledFile = spooledFile
        #if canImport(FoundationNetworking)
            let backpressure = Machine.Backpressure.fail(past: readAheadLimit)
        #else
            let backpressure = Machine.Backpressure.suspend(past: bufferSize)
        #endif
        state = Mutex(Machine(backpressure: backpressure, takeLimit: Self.takeLimit))
    }

    /// The response body as the reader sees it; make it once, since dropping it before its end cancels the
    /// task.
    func makeBody() -> Chunks { Chunks(reader: Reader(exchange: self)) }

    /// Starts the task and waits for the response head (a 3xx included: redirects are never followed).
    func responseHead() async throws -> HTTPURLResponse {
        try await withCheckedThrowingContinuation { continuation in
            switch state.withLock({ $0.waitForHead(continuation) }) {
            case .resume(let waiter, let result): waiter.resume(with: result)
            case .startTask: task.resume()
            }
        }
    }

    /// The Swift task was cancelled, or the reader went away before the end: stop the transfer, fail whoever
    /// waits, and drop what was buffered.
    func cancel() {
        let action = state.withLock { $0.cancel() }
        stopTask()
        action.head?.resume(throwing: CancellationError())
        action.reader?.resume(throwing: CancellationError())
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
        state.withLock { $0.received(http) }?.resume(returning: http)
    }

    func received(_ data: Data) {
        let action = state.withLock { machine in
            let action = machine.received(data)
            // Under the lock, so a resumption decided by a read can't come before this suspension.
            if case .suspendTask = action { task.suspend() }
            return action
        }
        switch action {
        case .deliver(let reader, let data): reader.resume(returning: ArraySlice(data))
        case .stopTask: stopTask()
        case .none, .suspendTask: break
        }
    }

    func completed(with error: (any Error)?) {
        if let spooledFile { try? FileManager.default.removeItem(at: spooledFile) }
        let action = state.withLock { $0.completed(with: error, noResponse: URLError(.badServerResponse)) }
        if let (head, failure) = action.head { head.resume(throwing: failure) }
        if let (reader, end) = action.reader {
            if let end { reader.resume(throwing: end) } else { reader.resume(returning: nil) }
        }
    }

    /// The next bytes: all that wait, in one chunk, or the next that arrive; `nil` at a clean end. A stopped
    /// transfer reaches the reader once URLSession has completed it: FoundationNetworking (6.3) completes a
    /// cancelled task exactly once, through `didCompleteWithError`, whether it had started or not, and a
    /// cancelled reader stops waiting.
    fileprivate func next() async throws -> HTTPBody.ByteChunk? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let action = state.withLock { machine in
                    let action = machine.read(continuation)
                    if case .resume(_, _, resumeTask: true) = action { task.resume() }
                    return action
                }
                if case .resume(let reader, let result, _) = action { reader.resume(with: result) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The most bytes one read takes: enough that a reader's cost per chunk is small next to URLSession's
    /// per delivery, small enough that copying them into one chunk costs little memory.
    static let takeLimit = 1024 * 1024

    /// The reader went away: stop a transfer it did not read to the end.
    fileprivate func readerGone() {
        if state.withLock({ $0.readerGoneNeedsCancel }) { cancel() }
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
