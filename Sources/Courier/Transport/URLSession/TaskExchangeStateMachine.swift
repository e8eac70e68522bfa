import Foundation

/// The decisions of one request's life on a `URLSessionTask` (``TaskExchange``): the response head the caller
/// waits for, the body bytes buffered for the reader (bounded), the task's suspension, and the ending from
/// any side (the caller cancelled, the reader gone, URLSession completed).
///
/// Transitions return what to do (resume a waiter, start, suspend, resume or stop the task) instead of doing
/// it, so every transition is tested without tasks or a network. The owner performs the task's suspension
/// and resumption under the same lock as the transition that decided them, so a suspension never lands after
/// the resumption meant to undo it.
struct TaskExchangeStateMachine<Response, HeadWaiter, Reader> {
    /// What bounds the bytes waiting for the reader.
    enum Backpressure {
        /// Suspend the task past this many unread bytes; resume it once at most half wait (Apple platforms).
        case suspend(past: Int)
        /// Fail the transfer past this many unread bytes (FoundationNetworking can't pause a transfer: resuming
        /// a suspended task restarts it from byte 0).
        case fail(past: Int)
    }

    fileprivate enum Head {
        /// Not received yet; `waiter` waits for it once the task has started.
        case awaiting(HeadWaiter?)
        case received(Response)
        case failed(any Error)
    }

    fileprivate enum Body {
        /// Bytes may still come; `reader` waits for them.
        case open(reader: Reader?)
        /// The reader fell too far behind and the task is being stopped; the reader (waiting as `reader`) gets
        /// the error once URLSession has completed the task, so that whoever continues the transfer does not
        /// queue behind the deliveries made before the completion (they are dropped by then).
        case stopping(ReadAheadExceeded, reader: Reader?)
        /// The body ended: cleanly (`nil`), or with the error the reader gets after the bytes that wait.
        case ended((any Error)?)
    }

    let backpressure: Backpressure
    /// The most bytes one read takes (whole deliveries, at least one).
    let takeLimit: Int
    private var head = Head.awaiting(nil)
    private var body = Body.open(reader: nil)
    /// Bytes received and not yet taken, and how many.
    private var pending: [Data] = []
    private var unread = 0
    /// Whether URLSession has completed the task.
    private var isCompleted = false
    private var suspended = false

    init(backpressure: Backpressure, takeLimit: Int) {
        self.backpressure = backpressure
        self.takeLimit = takeLimit
    }

    /// What to do with the caller that waits for the response head.
    enum HeadAction {
        case resume(HeadWaiter, Result<Response, any Error>)
        /// Keep it waiting and start the task.
        case startTask
    }

    /// The caller waits for the response head as `waiter`.
    mutating func waitForHead(_ waiter: HeadWaiter) -> HeadAction {
        switch head {
        case .received(let response): return .resume(waiter, .success(response))
        case .failed(let error): return .resume(waiter, .failure(error))
        case .awaiting:
            head = .awaiting(waiter)
            return .startTask
        }
    }

    /// Who to fail with a cancellation when the exchange is cancelled (the owner then stops the task).
    struct CancelAction {
        var head: HeadWaiter?
        var reader: Reader?
    }

    /// The caller's task was cancelled, or the reader went away before the end: fail whoever waits and drop
    /// what was buffered. Bytes dropped make even a finished body end in an error, never a clean, short one.
    mutating func cancel() -> CancelAction {
        var action = CancelAction()
        if case .awaiting(let waiter) = head {
            action.head = waiter
            head = .failed(CancellationError())
        }
        switch body {
        case .open(let reader):
            action.reader = reader
            body = .ended(CancellationError())
        case .stopping(let exceeded, let reader):
            action.reader = reader
            body = .stopping(exceeded, reader: nil)
        case .ended:
            if !pending.isEmpty { body = .ended(CancellationError()) }
        }
        pending = []
        unread = 0
        return action
    }

    /// URLSession delivered the response head: the waiter to resume with it, if one waits.
    mutating func received(_ response: Response) -> HeadWaiter? {
        guard case .awaiting(let waiter) = head else { return nil }
        head = .received(response)
        return waiter
    }

    /// What to do with bytes URLSession delivered.
    enum DataAction {
        /// Nothing more: dropped (the body has ended) or buffered.
        case none
        /// Resume the waiting reader with them.
        case deliver(Reader, Data)
        /// Buffered, and past the limit: suspend the task.
        case suspendTask
        /// Past the read-ahead limit: the transfer fails (the reader gets ``ReadAheadExceeded`` once URLSession
        /// has completed the task); stop the task.
        case stopTask
    }

    /// URLSession delivered `data`.
    mutating func received(_ data: Data) -> DataAction {
        // Cancelled, failed or stopping: the bytes have nowhere to go.
        guard case .open(let reader) = body, !data.isEmpty else { return .none }
        if let reader {
            body = .open(reader: nil)
            return .deliver(reader, data)
        }
        pending.append(data)
        unread += data.count
        switch backpressure {
        case .fail(let limit) where unread > limit:
            body = .stopping(ReadAheadExceeded(limit: limit), reader: nil)
            pending = []
            unread = 0
            return .stopTask
        case .suspend(let limit) where unread > limit && !suspended && !isCompleted:
            suspended = true
            return .suspendTask
        case .fail, .suspend:
            return .none
        }
    }

    /// Who to resume when URLSession completes the task.
    struct CompleteAction {
        /// The head's waiter and the failure it gets (the task ended before a head came).
        var head: (HeadWaiter, any Error)?
        /// The waiting reader and how the body ended (`nil`: cleanly).
        var reader: (Reader, (any Error)?)?
    }

    /// URLSession completed the task, with `error` or cleanly; `noResponse` is the head's failure when the
    /// task completed cleanly without one.
    mutating func completed(with error: (any Error)?, noResponse: any Error) -> CompleteAction {
        isCompleted = true
        var action = CompleteAction()
        var headFailure: (any Error)?
        switch head {
        case .awaiting(let waiter):
            let failure = error ?? noResponse
            headFailure = failure
            head = .failed(failure)
            if let waiter { action.head = (waiter, failure) }
        case .failed(let failure): headFailure = failure
        case .received: break
        }
        switch body {
        case .open(let reader):
            let end = headFailure ?? error
            body = .ended(end)
            if let reader { action.reader = (reader, end) }
        case .stopping(let exceeded, let reader):
            body = .ended(exceeded)
            if let reader { action.reader = (reader, exceeded) }
        case .ended:
            break
        }
        return action
    }

    /// What to do with a reader that wants the next bytes.
    enum ReadAction {
        /// Resume it with bytes, `nil` at a clean end, or the failure; `resumeTask`: resume the suspended task
        /// (at most half the buffer waits now).
        case resume(Reader, Result<ArraySlice<UInt8>?, any Error>, resumeTask: Bool)
        /// Keep it waiting for the next delivery or the end.
        case suspend
    }

    /// The reader wants the next bytes, as `reader`: all that wait, in one chunk of up to ``takeLimit``, or the
    /// next that arrive.
    mutating func read(_ reader: Reader) -> ReadAction {
        if !pending.isEmpty {
            let chunk = take()
            var resumeTask = false
            if suspended && unread <= bufferLimit / 2 {
                suspended = false
                resumeTask = !isCompleted
            }
            return .resume(reader, .success(chunk), resumeTask: resumeTask)
        }
        switch body {
        case .ended(let end):
            return .resume(reader, end.map { .failure($0) } ?? .success(nil), resumeTask: false)
        case .stopping(let exceeded, _):
            body = .stopping(exceeded, reader: reader)
            return .suspend
        case .open:
            body = .open(reader: reader)
            return .suspend
        }
    }

    /// Whether the exchange must be cancelled because its reader went away: the body had not ended.
    var readerGoneNeedsCancel: Bool {
        if case .open = body { return true }
        return false
    }

    private var bufferLimit: Int {
        switch backpressure {
        case .suspend(let limit), .fail(let limit): return limit
        }
    }

    /// Takes the waiting bytes as one chunk of up to ``takeLimit`` bytes (whole deliveries, at least one).
    private mutating func take() -> ArraySlice<UInt8> {
        var count = 0
        var taken = 0
        for data in pending {
            if taken > 0 && count + data.count > takeLimit { break }
            count += data.count
            taken += 1
        }
        var chunk = ArraySlice<UInt8>()
        chunk.reserveCapacity(count)
        for data in pending[..<taken] {
            data.withUnsafeBytes { chunk.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
        }
        pending.removeFirst(taken)
        unread -= count
        return chunk
    }
}

extension TaskExchangeStateMachine: Sendable where Response: Sendable, HeadWaiter: Sendable, Reader: Sendable {}
extension TaskExchangeStateMachine.Head: Sendable where Response: Sendable, HeadWaiter: Sendable, Reader: Sendable {}
extension TaskExchangeStateMachine.Body: Sendable where Response: Sendable, HeadWaiter: Sendable, Reader: Sendable {}
