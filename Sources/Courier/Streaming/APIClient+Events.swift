import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The server-sent events `route` answers with (`text/event-stream`), as they arrive, reconnecting as
    /// `policy` says when the connection drops.
    ///
    /// The request goes through the whole pipeline when iteration starts: middleware, redirects, status
    /// validation with the API's error body, time limits (which end at the response head, not the stream),
    /// cancel-by-type. Iterating in a task that is cancelled, or leaving the loop, closes the connection.
    /// `Accept: text/event-stream` is sent unless the route names its own `Accept`. The stream ends when the
    /// server ends the body, or answers a reconnection with `204 No Content`; an event cut off by a drop or
    /// the end is dropped, as the standard says. A reconnection sends `Last-Event-ID` and waits the server's
    /// `retry` (else the policy's delay), longer after each failed attempt; a reconnection answered with an
    /// unacceptable status ends the sequence with that ``APIError``. A request whose body can be read only
    /// once is not reconnected.
    /// ```swift
    /// for try await event in client.events(APIRequest<Void>.get("/v1/stream")) {
    ///     print(event.type, event.data)
    /// }
    /// ```
    public func events<R: Route>(_ route: R, reconnecting policy: ReconnectPolicy = .default) -> ServerSentEvents {
        ServerSentEvents(policy: policy) { (lastEventID: String) async throws(APIError) -> OpenedStream in
            var (request, body) = try makeRequest(for: route)
            if !request.headerFields.contains(.accept) { request.headerFields[.accept] = "text/event-stream" }
            if !lastEventID.isEmpty { request.headerFields[.lastEventID] = lastEventID }
            var opened = try await exchange(route, request: request, body: body, trackedAs: route, consumer: Opening())
            opened.replayable = body.map { $0.iterationBehavior == .multiple } ?? true
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
    /// `retry` is waited exactly).
    public var jitter: Bool

    /// A policy.
    public init(
        maxReconnects: Int = 5, delay: Duration = .seconds(3), maxDelay: Duration = .seconds(30), jitter: Bool = true
    ) {
        self.maxReconnects = maxReconnects
        self.delay = delay
        self.maxDelay = maxDelay
        self.jitter = jitter
    }

    /// Up to 5 attempts in a row, 3 s apart at first (the server's `retry` when it sends one).
    public static let `default` = ReconnectPolicy()
    /// No reconnection: a dropped connection ends the sequence with its error.
    public static let never = ReconnectPolicy(maxReconnects: 0)

    /// The wait before attempt `attempt` (1 for the first) when the server asked for `retry`.
    func wait(before attempt: Int, retry: Duration?) -> Duration {
        let base = retry ?? delay
        let grown = min(max(maxDelay, base), base * (1 << min(attempt - 1, 20)))
        return jitter && retry == nil ? grown * Double.random(in: 0.5...1) : grown
    }
}

/// Phase 6 for a stream: the accepted response, to be read by whoever iterates.
private struct Opening: ResponseConsumer {
    static var isShareable: Bool { false }

    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> OpenedStream {
        OpenedStream(body: delivery.body, response: delivery.response, failure: client.failureContext(for: delivery))
    }
}

/// A response whose body is read as a stream, and what its failures are reported with.
struct OpenedStream: Sendable {
    let body: HTTPBody?
    let response: HTTPResponse
    let failure: FailureContext
    /// Whether the request's body can be sent again, for a reconnection.
    var replayable = true
}

/// The events of an event stream (``APIClient/events(_:reconnecting:)``): an `AsyncSequence` that sends the
/// request when iteration starts, reconnects when the connection drops, and throws ``APIError`` for every
/// failure, before or during the stream.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// Each element is one dispatched event.
    public typealias Element = ServerSentEvent

    let policy: ReconnectPolicy
    let open: @Sendable (String) async throws(APIError) -> OpenedStream

    /// Iterates the events; make one per iteration (each sends its own request).
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(policy: policy, open: open) }

    /// Sends the request on its first `next()`, then parses the body as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let policy: ReconnectPolicy
        private let open: @Sendable (String) async throws(APIError) -> OpenedStream
        private var started = false
        private var stream: OpenedStream?
        private var chunks: HTTPBody.AsyncIterator?
        private var parser = ServerSentEventParser()
        private var pending: [ServerSentEvent] = []
        /// Reconnection attempts since the last event.
        private var attempts = 0

        init(policy: ReconnectPolicy, open: @escaping @Sendable (String) async throws(APIError) -> OpenedStream) {
            self.policy = policy
            self.open = open
        }

        /// The next event, or `nil` when the stream has ended.
        public mutating func next() async throws -> ServerSentEvent? {
            if !started {
                started = true
                connect(try await open(""))
            }
            while pending.isEmpty {
                guard var iterator = chunks, let stream else { return nil }
                let chunk: HTTPBody.ByteChunk?
                do {
                    chunk = try await iterator.next()
                } catch {
                    chunks = nil
                    let failure = stream.failure.receiving(error, response: stream.response)
                    try await reconnect(after: failure)
                    continue
                }
                guard let chunk else {
                    chunks = nil
                    return nil
                }
                chunks = iterator
                do {
                    for output in try parser.feed(chunk) {
                        if case .event(let event) = output { pending.append(event) }
                    }
                } catch let tooLong as LineTooLong {
                    chunks = nil
                    throw stream.failure.error(
                        .bodyTooLarge, phase: .receiving, message: tooLong.description, response: stream.response)
                }
            }
            attempts = 0
            return pending.removeFirst()
        }

        private mutating func connect(_ opened: OpenedStream) {
            stream = opened
            // `204 No Content` tells a client to stop reconnecting: the stream is over.
            chunks = opened.response.status == .noContent ? nil : opened.body?.makeAsyncIterator()
            parser.startNewConnection()
        }

        /// After a dropped connection: waits and reconnects with `Last-Event-ID`, as often as the policy allows;
        /// throws `failure` (or a later attempt's) when it may not.
        private mutating func reconnect(after failure: APIError) async throws {
            var failure = failure
            while true {
                guard failure.kind == .transport, stream?.replayable != false, attempts < policy.maxReconnects else {
                    throw failure
                }
                attempts += 1
                do {
                    try await Task.sleep(for: policy.wait(before: attempts, retry: parser.reconnectionTime))
                } catch {
                    throw stream.map { $0.failure.error(.cancelled, phase: .receiving, response: $0.response) }
                        ?? failure
                }
                do {
                    connect(try await open(parser.currentLastEventID))
                    return
                } catch {
                    // An unacceptable status ends the stream; a connection that fails again is retried.
                    failure = error
                }
            }
        }
    }
}
