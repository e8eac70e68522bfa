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

extension ArraySlice<UInt8> {
    /// Where `byte` first occurs (`memchr`: lines and records can be megabytes long, the scan runs over every
    /// byte of a stream, and it must keep up with a loopback connection in a debug build too).
    func firstIndex(ofByte byte: UInt8) -> Int? {
        withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
        }
    }
}

/// Finds one byte value in a chunk front to back, remembering where it was found: asked again from an index
/// not past that place, it answers without searching, so the chunk is searched at most once for the byte
/// however many times it is asked (a search per line or per escape would make long chunks quadratic).
struct NextByte {
    let byte: UInt8
    /// Where `byte` was last found at or after the last search's start (the chunk's end when it wasn't).
    private var found = Int.min

    init(_ byte: UInt8) { self.byte = byte }

    /// The first `byte` at or after `index` in `bytes` (all searches in the same chunk), else its end.
    mutating func next(in bytes: ArraySlice<UInt8>, from index: Int) -> Int {
        if found < index { found = bytes[index...].firstIndex(ofByte: byte) ?? bytes.endIndex }
        return found
    }
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

/// A few chunks of a body read ahead of its consumer, handed over one at a time; the decisions are a
/// ``ChunkPumpStateMachine``'s.
private final class ChunkPump: Sendable {
    private typealias Machine = ChunkPumpStateMachine<
        HTTPBody.ByteChunk, CheckedContinuation<HTTPBody.ByteChunk?, any Error>, CheckedContinuation<Void, Never>
    >

    private let time: TimeSource
    private let state: Mutex<Machine>
    /// The task that reads the body, cancelled when the pump ends early (a timeout, a cancelled consumer).
    let readingTask = Mutex<Task<Void, Never>?>(nil)

    init(idleTimeout: Duration, time: TimeSource) {
        self.time = time
        state = Mutex(Machine(idleTimeout: idleTimeout, now: time.now))
    }

    /// Reads `body` into the pump, waiting for room when it is full.
    func read(_ body: HTTPBody) async {
        do {
            for try await chunk in body {
                switch state.withLock({ $0.produced(chunk) }) {
                case .deliver(let consumer, let chunk): consumer.resume(returning: chunk)
                case .buffered(full: false): break
                case .buffered(full: true):
                    await withCheckedContinuation { producer in
                        if !state.withLock({ $0.waitForRoom(producer) }) { producer.resume() }
                    }
                case .stop: return
                }
                // Reading again: the idle clock restarts, however room was made.
                let now = time.now
                guard state.withLock({ $0.reading(now: now) }) else { return }
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
                guard case .resume(let consumer, let result, let producer) = state.withLock({ $0.take(continuation) })
                else { return }
                producer?.resume()
                consumer.resume(with: result)
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// When the watchdog should look next (see ``ChunkPumpStateMachine/deadline(now:)``).
    func deadline() -> Duration? {
        let now = time.now
        return state.withLock { $0.deadline(now: now) }
    }

    /// Ends the pump with ``IdleTimeout`` when a network read has been waiting for the whole timeout.
    func timeOutIfIdle() -> Bool {
        let now = time.now
        guard let action = state.withLock({ $0.timeOutIfIdle(now: now) }) else { return false }
        perform(action)
        return true
    }

    /// Ends the pump because its consumer went away.
    func close() {
        finish(.failure(CancellationError()))
    }

    /// Ends the pump (the first ending wins), waking whoever waits; an early end cancels the read.
    private func finish(_ end: Result<Void, any Error>) {
        perform(state.withLock { $0.finish(end) })
    }

    private func perform(_ action: Machine.FinishAction) {
        action.producer?.resume()
        if action.cancelRead { readingTask.withLock { $0 }?.cancel() }
        guard let consumer = action.consumer else { return }
        switch action.end {
        case .success: consumer.resume(returning: nil)
        case .failure(let error): consumer.resume(throwing: error)
        }
    }
}
