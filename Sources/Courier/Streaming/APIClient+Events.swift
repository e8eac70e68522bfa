import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The server-sent events `route` answers with (`text/event-stream`), as they arrive, reconnecting as
    /// `policy` says when the connection drops.
    ///
    /// The request goes through the whole pipeline when iteration starts: middleware, redirects, status
    /// validation with the API's error body, time limits (which end at the response head, not the stream),
    /// cancel-by-type (until the head arrives: ``APIClient/cancelAll(_:where:)`` doesn't reach an open
    /// stream; cancel the task that iterates it). Iterating in a task that is cancelled, or leaving the loop,
    /// closes the connection. `Accept: text/event-stream` is sent unless the route names its own `Accept`;
    /// a response of another content type fails with ``APIError/Kind/decoding``. The HTTP cache never stores
    /// an event stream.
    ///
    /// The stream ends when the server ends the body (unlike a browser, which reconnects then, unless the
    /// policy says ``ReconnectPolicy/reconnectsAfterEnd``), or answers a reconnection with `204 No Content`;
    /// an event cut off by a drop or the end is dropped, as the standard says. A dropped connection or a
    /// timeout is reconnected with `Last-Event-ID` after the server's `retry` (else the policy's delay),
    /// longer after each failed attempt; a reconnection answered with an unacceptable status ends the
    /// sequence with that ``APIError``. Only the network's failures are reconnected: a failure on the client's
    /// side ends the stream for good under any policy, since another connection would fail the same way (a
    /// line or event past the limit, ``APIError/Kind/bodyTooLarge``, the read-ahead of
    /// ``StreamingURLSessionTransport`` on Linux exceeded, also `.bodyTooLarge`; a body that can't be decoded;
    /// a cancellation). Only requests that may be sent again are reconnected: an idempotent method (or an
    /// `Idempotency-Key`) and a body that can be read again.
    /// With an `idleTimeout`, a gap longer than that with nothing from the server (an event, or a comment a
    /// server sends to keep the stream open) counts as a dropped connection: the stream is closed and
    /// reconnected. The client's ``APIClient/Configuration/maxBodySize`` bounds each line and each event's
    /// data, not the stream.
    /// ```swift
    /// for try await event in client.events(APIRequest<Void>.get("/v1/stream")) {
    ///     print(event.type, event.data)
    /// }
    /// ```
    public func events<R: Route>(
        _ route: R, reconnecting policy: ReconnectPolicy = .default, idleTimeout: Duration? = nil
    ) -> ServerSentEvents {
        ServerSentEvents(
            policy: policy, idleTimeout: idleTimeout, maxLineLength: pipeline.settings.limits.maxBodySize,
            time: pipeline.time
        ) {
            (lastEventID: String) async throws(APIError) -> OpenedStream in
            var (request, body) = try makeRequest(for: route)
            if !request.headerFields.contains(.accept) { request.headerFields[.accept] = "text/event-stream" }
            if !lastEventID.isEmpty { request.headerFields[.lastEventID] = lastEventID }
            var opened = try await exchange(
                route, request: request, body: body, trackedAs: route,
                consumer: Opening(contentType: "text/event-stream"))
            opened.replayable = RetryPolicy().allowsRetry(
                of: request, bodyIsReplayable: body.map { $0.iterationBehavior == .multiple } ?? true)
            return opened
        }
    }
}

/// How an event stream reconnects after its connection drops: after the server's `retry` when it sent one,
/// else after ``delay``, doubling after each attempt that fails, up to ``maxDelay``; at most
/// ``maxReconnects`` attempts in a row without an event in between.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Attempts in a row, without an event between them, before the stream ends with the last error.
    public var maxReconnects: Int
    /// The wait before the first attempt when the server sent no `retry`.
    public var delay: Duration
    /// The longest wait.
    public var maxDelay: Duration
    /// Whether the policy's own waits are spread at random between half and all of their length (a server's
    /// `retry` is waited exactly the first time).
    public var jitter: Bool
    /// Whether a stream the server ended cleanly is reconnected too, as browsers do; off by default, since an
    /// API that ends a stream usually means it.
    public var reconnectsAfterEnd: Bool

    /// A policy.
    public init(
        maxReconnects: Int = 5, delay: Duration = .seconds(3), maxDelay: Duration = .seconds(30), jitter: Bool = true,
        reconnectsAfterEnd: Bool = false
    ) {
        self.maxReconnects = maxReconnects
        self.delay = delay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.reconnectsAfterEnd = reconnectsAfterEnd
    }

    /// Up to 5 attempts in a row, 3 s apart at first (the server's `retry` when it sends one).
    public static let `default` = ReconnectPolicy()
    /// No reconnection: a dropped connection ends the sequence with its error.
    public static let never = ReconnectPolicy(maxReconnects: 0)

    /// The wait before attempt `attempt` (1 for the first): the server's `retry` (else ``delay``), doubled
    /// after each failed attempt, never past ``maxDelay``; only the policy's own delay is jittered.
    func wait(before attempt: Int, retry: Duration?) -> Duration {
        let base = min(retry ?? delay, maxDelay)
        let grown = min(maxDelay, base * Double(1 << min(max(attempt - 1, 0), 20)))
        return jitter && retry == nil ? grown * Double.random(in: 0.5...1) : grown
    }
}

/// The events of an event stream (``APIClient/events(_:reconnecting:idleTimeout:)``): an `AsyncSequence` that sends the
/// request when iteration starts, reconnects when the network fails, and throws ``APIError`` for every
/// failure, before or during the stream.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// Each element is one dispatched event.
    public typealias Element = ServerSentEvent
    /// Every failure is an ``APIError``.
    public typealias Failure = APIError

    let policy: ReconnectPolicy
    let idleTimeout: Duration?
    let maxLineLength: Int
    /// The client's clock, for reconnection delays and the idle timeout.
    let time: TimeSource
    let open: @Sendable (String) async throws(APIError) -> OpenedStream

    /// Iterates the events; make one per iteration (each sends its own request).
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }

    /// Sends the request on its first `next()`, then parses the body as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let sequence: ServerSentEvents
        private var started = false
        private var stream: OpenedStream?
        private var reader: StreamReader?
        private var parser: ServerSentEventParser
        private var pending: [ServerSentEvent] = []
        /// The next of `pending` to hand out (an index, so that a chunk of many events drains in linear time).
        private var nextPending = 0
        /// Reconnection attempts since the last event.
        private var attempts = 0
        /// Body bytes read on the current connection.
        private var bytes = 0
        /// A failure found in the middle of a chunk, thrown once the events before it are handed out.
        private var failure: APIError?
        private var outputs: [ServerSentEventParser.Output] = []

        init(sequence: ServerSentEvents) {
            self.sequence = sequence
            parser = ServerSentEventParser(maxLineLength: sequence.maxLineLength)
        }

        private var policy: ReconnectPolicy { sequence.policy }

        /// The next event, or `nil` when the stream has ended.
        public mutating func next() async throws(APIError) -> ServerSentEvent? {
            if !started {
                started = true
                connect(try await sequence.open(""))
            }
            while nextPending == pending.count {
                pending.removeAll(keepingCapacity: true)
                nextPending = 0
                if let failure {
                    self.failure = nil
                    throw failure
                }
                guard reader != nil, let stream else { return nil }
                let chunk: HTTPBody.ByteChunk?
                do {
                    chunk = try await reader?.next()
                } catch {
                    reader = nil
                    let failure = stream.failure.receiving(error, response: stream.response)
                    stream.ended(failure, bytes: bytes)
                    try await reconnect(after: failure)
                    continue
                }
                guard let chunk else {
                    reader = nil
                    stream.ended(nil, bytes: bytes)
                    guard policy.reconnectsAfterEnd, stream.response.status != .noContent else { return nil }
                    try await reconnect(
                        after: stream.failure.error(
                            .transport, phase: .receiving, message: "the server ended the stream",
                            response: stream.response))
                    continue
                }
                bytes += chunk.count
                outputs.removeAll(keepingCapacity: true)
                do {
                    try parser.feed(chunk, into: &outputs)
                } catch {
                    reader = nil
                    self.stream = nil
                    failure = stream.failure.receiving(error, response: stream.response)
                    stream.ended(failure, bytes: bytes)
                }
                for output in outputs {
                    if case .event(let event) = output { pending.append(event) }
                }
            }
            attempts = 0
            defer { nextPending += 1 }
            return pending[nextPending]
        }

        private mutating func connect(_ opened: OpenedStream) {
            stream = opened
            bytes = 0
            // `204 No Content` tells a client to stop reconnecting: the stream is over.
            reader =
                opened.response.status == .noContent
                ? nil
                : opened.body.map { StreamReader(body: $0, idleTimeout: sequence.idleTimeout, time: sequence.time) }
            parser.startNewConnection()
        }

        /// After a dropped connection: waits and reconnects with `Last-Event-ID`, as often as the policy allows;
        /// throws `failure` (or a later attempt's) when it may not.
        private mutating func reconnect(after failure: APIError) async throws(APIError) {
            var failure = failure
            while true {
                // Only a failure of the network (a dropped connection, a timeout) is reconnected. What failed on
                // this side (a limit passed, the read-ahead exceeded, a decoding failure, a cancellation) or a
                // status is final: another connection would fail the same way.
                guard failure.kind == .transport || failure.kind == .timedOut, stream?.replayable != false,
                    attempts < policy.maxReconnects
                else { throw failure }
                attempts += 1
                do {
                    try await sequence.time.sleep(for: policy.wait(before: attempts, retry: parser.reconnectionTime))
                } catch {
                    throw stream.map { $0.failure.error(.cancelled, phase: .receiving, response: $0.response) }
                        ?? failure
                }
                do {
                    connect(try await sequence.open(parser.currentLastEventID))
                    return
                } catch {
                    // An unacceptable status ends the stream; a connection that fails again is retried.
                    failure = error
                }
            }
        }
    }
}
