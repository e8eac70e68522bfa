import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// Phase 6 for a stream: the accepted response, to be read by whoever iterates.
struct Opening: ResponseConsumer {
    /// The content type the response must have (lowercase, without parameters), if any.
    let contentType: String?

    static var isShareable: Bool { false }
    /// Read as it arrives: never cached, and observed until the stream ends (or its iterator goes away).
    static var isStream: Bool { true }

    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> OpenedStream {
        let response = delivery.response
        let type = response.headerFields[.contentType]?.split(separator: ";").first?.trimmingCharacters(
            in: .whitespaces)
        // A 204 carries no body (it ends a stream); anything else must be of the expected type.
        guard let contentType, response.status != .noContent, type?.lowercased() != contentType else {
            return OpenedStream(
                body: delivery.body?.httpBody, response: response, failure: client.failureContext(for: delivery),
                observer: delivery.observer)
        }
        throw client.failureContext(for: delivery).error(
            .decoding, phase: .receiving,
            message: "the response is \(type ?? "without a Content-Type"), not \(contentType)", response: response)
    }
}

/// A response whose body is read as a stream, and what its failures are reported with.
struct OpenedStream: Sendable {
    let body: HTTPBody?
    let response: HTTPResponse
    let failure: FailureContext
    /// The call's metrics and tracing, when on.
    let observer: CallObserver?
    /// Whether the request's body can be sent again, for a reconnection.
    var replayable = true

    /// Ends the call's observation: the stream ended (`nil`) or failed, after `bytes` of body.
    func ended(_ error: APIError?, bytes: Int) {
        observer?.finish(error, responseBytes: bytes)
    }
}

/// Reads a streamed response body chunk by chunk, for ``ServerSentEvents`` and ``JSONRecords``.
///
/// Without an idle timeout the body is read in the caller's task, with nothing in between. With one, a task
/// of the reader's own reads the body a few chunks ahead (a `ChunkPump`) while a watchdog task checks that
/// the network delivers something at least every `idleTimeout`; when it doesn't, the read is cancelled (the
/// pump's task, never the caller's, so the caller can go on: reconnect, or report the timeout) and
/// `next()` throws `IdleTimeout`. Time the consumer spends between reads doesn't count: the pump stops
/// reading when its buffer is full and the clock restarts when it reads again.
struct StreamReader {
    private var direct: HTTPBody.AsyncIterator?
    private let pumped: PumpOwner?

    init(body: HTTPBody, idleTimeout: Duration?, time: TimeSource) {
        if let idleTimeout {
            direct = nil
            pumped = PumpOwner(body: body, idleTimeout: idleTimeout, time: time)
        } else {
            direct = body.makeAsyncIterator()
            pumped = nil
        }
    }

    /// The next chunk, or `nil` at the end of the body; throws the transport's error, ``IdleTimeout``, or
    /// `CancellationError` when the calling task is cancelled.
    mutating func next() async throws -> HTTPBody.ByteChunk? {
        if let pumped { return try await pumped.pump.take() }
        return try await direct?.next()
    }
}

/// A failure found while reading a stream, and the kind of ``APIError`` it is.
protocol StreamFailure: Error, CustomStringConvertible {
    var kind: APIError.Kind { get }
}

/// No byte of a stream arrived for the reader's idle timeout.
struct IdleTimeout: StreamFailure {
    let limit: Duration
    var kind: APIError.Kind { .timedOut }
    var description: String { "nothing arrived for \(limit) (the stream's idle timeout)" }
}

/// Owns a pump's tasks: when the reader that holds it goes away (the consumer left its loop), both are
/// cancelled, which closes the connection.
private final class PumpOwner: Sendable {
    let pump: ChunkPump
    private let reading: Task<Void, Never>
    private let watching: Task<Void, Never>

    init(body: HTTPBody, idleTimeout: Duration, time: TimeSource) {
        let pump = ChunkPump(idleTimeout: idleTimeout, time: time)
        let reading = Task { await pump.read(body) }
        pump.readingTask.withLock { $0 = reading }
        let watching = Task {
            // Sleeps until the pump's deadline, which moves on whenever a chunk arrives; stops the read
            // when it passes with the pump still waiting on the network.
            while let deadline = pump.deadline() {
                do { try await time.sleep(until: deadline) } catch { return }
                if pump.timeOutIfIdle() { return }
            }
        }
        self.pump = pump
        self.reading = reading
        self.watching = watching
    }

    deinit {
        // Ending the pump also wakes a reader waiting for room, which a cancellation alone would not.
        pump.close()
        reading.cancel()
        watching.cancel()
    }
}

/// A few chunks of a body read ahead of its consumer, handed over one at a time.
private final class ChunkPump: Sendable {
    private struct State {
        var chunks: [HTTPBody.ByteChunk] = []
        var head = 0
        /// Set once the body ends (`nil` error) or fails.
        var end: Result<Void, any Error>?
        var consumer: CheckedContinuation<HTTPBody.ByteChunk?, any Error>?
        var producer: CheckedContinuation<Void, Never>?
        /// When the network read in progress started (`nil` while the pump waits for room).
        var readingSince: Duration?
    }

    /// How many chunks may wait for the consumer.
    private static let capacity = 4
    private let idleTimeout: Duration
    private let time: TimeSource
    private let state: Mutex<State>
    /// The task that reads the body, cancelled when the pump ends early (a timeout, a cancelled consumer).
    let readingTask = Mutex<Task<Void, Never>?>(nil)

    init(idleTimeout: Duration, time: TimeSource) {
        self.idleTimeout = idleTimeout
        self.time = time
        state = Mutex(State(readingSince: time.now))
    }

    /// Reads `body` into the pump, waiting for room when it holds ``capacity`` chunks.
    func read(_ body: HTTPBody) async {
        do {
            for try await chunk in body {
                let full: Bool = state.withLock { state in
                    guard state.end == nil else { return false }
                    if let consumer = state.consumer {
                        state.consumer = nil
                        consumer.resume(returning: chunk)
                    } else {
                        state.chunks.append(chunk)
                    }
                    let full = state.chunks.count - state.head >= Self.capacity
                    // Waiting for room is not waiting on the network: the idle clock stops until reading again.
                    if full { state.readingSince = nil }
                    return full
                }
                if full {
                    await withCheckedContinuation { continuation in
                        let resumeNow = state.withLock { state in
                            guard state.chunks.count - state.head >= Self.capacity, state.end == nil else {
                                return true
                            }
                            state.producer = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                }
                // Reading again: the idle clock restarts, however room was made.
                let ended = state.withLock { state in
                    if state.end == nil { state.readingSince = time.now }
                    return state.end != nil
                }
                if ended { return }
            }
            finish(.success(()))
        } catch {
            finish(.failure(error))
        }
    }

    /// The next chunk, waiting for it; cancelling the calling task cancels the read.
    func take() async throws -> HTTPBody.ByteChunk? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<HTTPBody.ByteChunk?, any Error>? = state.withLock { state in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.head += 1
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        if let producer = state.producer {
                            state.producer = nil
                            producer.resume()
                        }
                        return .success(chunk)
                    }
                    switch state.end {
                    case .success: return .success(nil)
                    case .failure(let error): return .failure(error)
                    case nil:
                        state.consumer = continuation
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// When the watchdog should look next: the idle timeout after the read in progress began, or one timeout
    /// from now while the pump waits for room; `nil` once the body has ended.
    func deadline() -> Duration? {
        let now = time.now
        return state.withLock { state in
            guard state.end == nil else { return nil }
            return (state.readingSince ?? now) + idleTimeout
        }
    }

    /// Ends the pump with ``IdleTimeout`` when a network read has been waiting for the whole timeout.
    func timeOutIfIdle() -> Bool {
        let now = time.now
        let idle = state.withLock { state in
            guard state.end == nil, let since = state.readingSince else { return false }
            return since + idleTimeout <= now
        }
        if idle { finish(.failure(IdleTimeout(limit: idleTimeout))) }
        return idle
    }

    /// Ends the pump because its consumer went away.
    func close() {
        finish(.failure(CancellationError()))
    }

    /// Ends the pump (the first ending wins), waking whoever waits; an early end cancels the read.
    private func finish(_ end: Result<Void, any Error>) {
        let (consumer, producer) = state.withLock { state in
            if state.end == nil { state.end = end }
            defer {
                state.consumer = nil
                state.producer = nil
            }
            return (state.consumer, state.producer)
        }
        producer?.resume()
        if case .failure = end { readingTask.withLock { $0 }?.cancel() }
        guard let consumer else { return }
        switch end {
        case .success: consumer.resume(returning: nil)
        case .failure(let error): consumer.resume(throwing: error)
        }
    }
}
