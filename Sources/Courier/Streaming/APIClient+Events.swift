import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The server-sent events `route` answers with (`text/event-stream`), as they arrive.
    ///
    /// The request goes through the whole pipeline when iteration starts: middleware, redirects, status
    /// validation with the API's error body, time limits (which end at the response head, not the stream),
    /// cancel-by-type. Iterating in a task that is cancelled, or leaving the loop, closes the connection.
    /// `Accept: text/event-stream` is sent unless the route names its own `Accept`. The stream ends when the
    /// server ends the body; an event cut off by the end is dropped, as the standard says.
    /// ```swift
    /// for try await event in client.events(APIRequest<Void>.get("/v1/stream")) {
    ///     print(event.type, event.data)
    /// }
    /// ```
    public func events<R: Route>(_ route: R) -> ServerSentEvents {
        ServerSentEvents { () async throws(APIError) -> OpenedStream in
            var (request, body) = try makeRequest(for: route)
            if !request.headerFields.contains(.accept) { request.headerFields[.accept] = "text/event-stream" }
            return try await exchange(route, request: request, body: body, trackedAs: route, consumer: Opening())
        }
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
}

/// The events of an event stream (``APIClient/events(_:)``): an `AsyncSequence` that sends the request when
/// iteration starts and throws ``APIError`` for every failure, before or during the stream.
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// Each element is one dispatched event.
    public typealias Element = ServerSentEvent

    let open: @Sendable () async throws(APIError) -> OpenedStream

    /// Iterates the events; make one per iteration (each sends its own request).
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(open: open) }

    /// Sends the request on its first `next()`, then parses the body as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var open: (@Sendable () async throws(APIError) -> OpenedStream)?
        private var stream: OpenedStream?
        private var chunks: HTTPBody.AsyncIterator?
        private var parser = ServerSentEventParser()
        private var pending: [ServerSentEvent] = []

        init(open: @escaping @Sendable () async throws(APIError) -> OpenedStream) {
            self.open = open
        }

        /// The next event, or `nil` when the stream has ended.
        public mutating func next() async throws -> ServerSentEvent? {
            if let open {
                self.open = nil
                let opened = try await open()
                stream = opened
                chunks = opened.body?.makeAsyncIterator()
            }
            while pending.isEmpty {
                guard var iterator = chunks, let stream else { return nil }
                let chunk: HTTPBody.ByteChunk?
                do {
                    chunk = try await iterator.next()
                } catch {
                    chunks = nil
                    throw stream.failure.receiving(error, response: stream.response)
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
            return pending.removeFirst()
        }
    }
}
