import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that can hand ``APIClient``'s pipeline its own buffers of a response body (see
/// ``ResponseBody``) instead of an `HTTPBody` over them. ``HTTPClientTransport`` does; the pipeline finds out
/// once, when the client is made, never per request.
protocol BufferingTransport: ClientTransport {
    /// The transport's answer to `request`, its body the transport's own buffers.
    func sendKeepingBuffers(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (
        HTTPResponse, ResponseBody?, HTTPProtocol
    )
}

/// Stage 8, the last: the one place the pipeline calls the transport, under a request span of the call's
/// when it is observed, and within the call's attempt time limit when it has one.
struct TransportStage: Sendable {
    private let transport: any ClientTransport
    /// The same transport, when it keeps its buffers.
    private let buffering: (any BufferingTransport)?
    private let redaction: Redaction
    /// The client's clock, for the attempt time limit.
    private let time: TimeSource

    init(_ transport: any ClientTransport, redaction: Redaction, time: TimeSource) {
        self.transport = transport
        buffering = transport as? any BufferingTransport
        self.redaction = redaction
        self.time = time
    }

    /// The transport's answer to `hop`. Inlined into the pipeline, so that the stage costs no async frame.
    @inline(__always)
    func send(_ hop: Hop) async throws -> Arrival {
        guard let observer = hop.plan.observer else { return try await attempt(hop, head: hop.head) }
        return try await observer.transportCall(hop.head, url: hop.url, redaction: redaction) { head in
            try await attempt(hop, head: head)
        }
    }

    /// The transport's answer to `head`, or ``APIError/Kind/timedOut`` when the call's attempt time limit
    /// passes first (a retry middleware takes that as a transient failure).
    @inline(__always)
    private func attempt(_ hop: Hop, head: HTTPRequest) async throws -> Arrival {
        guard let limit = hop.plan.attemptTimeout else { return try await call(hop, head: head) }
        if let arrival = try await TimeLimit.run(limit, time: time, { try await call(hop, head: head) }) {
            return arrival
        }
        throw APIError(.timedOut, phase: .sending, message: "no response within the attempt's time limit of \(limit)")
    }

    /// The transport's answer to `head`. A Courier transport's own error (an ``APIError`` it made with the
    /// default redaction, for callers that show it as it is) is taken back to what the transport met, so that
    /// everything above (spans, retry, middleware, the client's error) sees it as from any other transport
    /// and redacts it with the client's own policy.
    @inline(__always)
    private func call(_ hop: Hop, head: HTTPRequest) async throws -> Arrival {
        do {
            if let buffering {
                let (response, body, version) = try await buffering.sendKeepingBuffers(
                    head, body: hop.body, baseURL: hop.baseURL)
                return Arrival(
                    response: response, body: body, source: ResponseSource(status: .network, httpProtocol: version))
            }
            let (response, body) = try await transport.send(
                head, body: hop.body, baseURL: hop.baseURL, operationID: hop.plan.operationID)
            return Arrival(response: response, body: body.map(ResponseBody.init))
        } catch let error as APIError {
            throw error.transportError ?? error
        }
    }
}
