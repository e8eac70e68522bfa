import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The one request pipeline, call by call. Every request a client sends, whether by ``APIClient/send(_:)``,
/// ``APIClient/download(_:to:resumingFrom:progress:)``, a stream or a page of ``APIClient/pages(_:maxPages:)``,
/// goes through ``APIClient/exchange(_:request:body:trackedAs:consumer:)`` below, which reads top to bottom:
///
/// 1. build (the caller has: ``APIClient/makeRequest(for:)``), and stop at once if already cancelled;
/// 2. resolve the call's ``RequestPlan`` (the endpoint's choices, else the client's), and observe the call;
/// 3. track it for ``APIClient/cancelAll(_:where:)`` and run it within its time limit (`CallLimits.swift`);
/// 4. send it through the client's assembled ``Pipeline`` (middleware, cookie jar, coalescing, cache,
///    transport), following redirects (`RedirectStage.swift`); decode its content (`ContentDecodingStage.swift`);
/// 5. validate the status, decoding the API's error body when it is not acceptable;
/// 6. consume the accepted response: `send` collects, inspects and decodes it; `download` streams it to a file.
///
/// Each phase maps its own failures to an ``APIError`` (through ``FailureContext``, made only when one fails)
/// where it runs.
extension APIClient {
    /// Sends `endpoint` and returns its decoded response.
    ///
    /// Throws ``APIError`` for every failure: building, sending, an unacceptable status (with the API's
    /// decoded error body when there is one), an over-large body, decoding, a timeout or cancellation.
    public func send<E: Endpoint>(_ endpoint: E) async throws(APIError) -> E.Response {
        try await response(endpoint).value
    }

    /// Sends `endpoint` and returns its decoded value together with the response head and raw body.
    public func response<E: Endpoint>(_ endpoint: E) async throws(APIError) -> APIResponse<E.Response> {
        let (request, body) = try makeRequest(for: endpoint)
        return try await response(endpoint, request: request, body: body, trackedAs: endpoint)
    }

    /// Sends `endpoint`'s already built request and consumes the response by collecting and decoding it.
    /// A page reached through a link is tracked as the endpoint it continues (`key`).
    @inline(__always)
    func response<E: Endpoint, Key: Route>(_ endpoint: E, request: HTTPRequest, body: HTTPBody?, trackedAs key: Key)
        async throws(APIError) -> APIResponse<E.Response>
    {
        try await exchange(
            endpoint, request: request, body: body, trackedAs: key, consumer: Decoding(endpoint: endpoint))
    }

    /// Runs one request through every phase of the pipeline and hands the accepted response to `consumer`.
    func exchange<R: Route, Key: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, trackedAs key: Key, consumer: Consumer
    ) async throws(APIError) -> Consumer.Value {
        if Task.isCancelled { throw failureContext(for: request).error(.cancelled, phase: .building) }
        var plan = RequestPlan(route, body: body, trackedAs: key, consumer: Consumer.self, pipeline: pipeline)
        // Metrics and tracing cost two checks unless the process (or task) has a backend for them.
        guard let observer = CallObserver.start(route: route, request: request, client: self) else {
            return try await limited(
                route, request: request, body: body, plan: plan, trackedAs: key, consumer: consumer)
        }
        plan.observer = observer
        do {
            let value = try await observer.bound { [plan] () async throws(APIError) -> Consumer.Value in
                try await limited(route, request: request, body: body, plan: plan, trackedAs: key, consumer: consumer)
            }
            if !Consumer.isStream {
                observer.finish(nil, requestBytes: body?.knownLength, responseBytes: consumer.bodySize(of: value))
            }
            return value
        } catch {
            observer.finish(error, requestBytes: body?.knownLength)
            throw error
        }
    }

    /// Phase 3: phases 4 to 6, tracked and within the call's time limit when it has them.
    @inline(__always)
    private func limited<R: Route, Key: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, plan: RequestPlan, trackedAs key: Key, consumer: Consumer
    ) async throws(APIError) -> Consumer.Value {
        // The common case, no tracking and no time limit, runs the phases in the calling task with no closure.
        guard plan.isTracked || plan.timeout != nil else {
            return try await sendValidateConsume(route, request: request, body: body, plan: plan, consumer: consumer)
        }
        @Sendable func sendAndConsume() async throws(APIError) -> Consumer.Value {
            try await sendValidateConsume(route, request: request, body: body, plan: plan, consumer: consumer)
        }
        @Sendable func withinTimeLimit() async throws(APIError) -> Consumer.Value {
            guard let limit = plan.timeout else { return try await sendAndConsume() }
            return try await run(within: limit, request: request, sendAndConsume)
        }
        guard plan.isTracked else { return try await withinTimeLimit() }
        return try await tracked(as: key, request: request, withinTimeLimit)
    }

    /// Phases 4 to 6: send through the pipeline (following redirects), decode the content, validate the status,
    /// consume the response.
    private func sendValidateConsume<R: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, plan: RequestPlan, consumer: Consumer
    ) async throws(APIError) -> Consumer.Value {
        var delivery = try await hop(request, body: body, plan: plan, trail: Trail())
        if RedirectStep.isRedirect(delivery.response) {
            delivery = try await followRedirects(from: delivery, body: body, plan: plan)
        }
        if delivery.response.headerFields.has(.contentEncoding) { delivery = try await decodingContent(delivery) }
        guard plan.acceptableStatuses.contains(delivery.response.status) else {
            var error = await statusError(for: route, delivery)
            if delivery.attempts > 1 { error.attempts = delivery.attempts }
            throw error
        }
        if let observer = plan.observer {
            observer.delivered(
                status: delivery.response.status, attempts: delivery.attempts,
                redirects: delivery.trail.redirects.count,
                source: delivery.source)
            delivery.observer = observer
        }
        return try await consumer.consume(delivery, client: self)
    }

    /// Phase 4, one hop: `request` through the client's ``Pipeline``, its failures mapped to ``APIError``s
    /// that hide what middleware and the cookie jar added. On a redirect to another origin
    /// (`crossesOrigin`), credentials middleware adds are removed before the network sees them.
    func hop(
        _ request: HTTPRequest, body: HTTPBody?, plan: RequestPlan, trail: Trail,
        crossesOrigin: Bool = false
    ) async throws(APIError) -> Delivery {
        let context = pipeline.recordsHeads ? pipeline.makeContext() : nil
        // What went before, and the heads this hop sent (to hide what middleware and the jar added).
        func trailSoFar() -> Trail { context.map { trail.adding(sent: $0.sentRequests) } ?? trail }
        let hop = Hop(
            head: request, body: body, baseURL: baseURL(for: request), plan: plan, context: context,
            crossesOrigin: crossesOrigin)
        do {
            let arrival = try await pipeline.send(hop)
            return Delivery(
                request: request, response: arrival.response, body: arrival.body, attempts: context?.attempts ?? 0,
                trail: trailSoFar(), source: arrival.source)
        } catch {
            let trail = trailSoFar()
            if let failure = error as? SharedBodyFailure {
                throw failureContext(for: request, trail: trail).receiving(
                    failure.underlying, response: failure.response)
            }
            var apiError = failureContext(for: request, trail: trail).sending(
                error, fromTransport: context?.didTransportFail ?? true)
            if let attempts = context?.attempts, attempts > 1 { apiError.attempts = attempts }
            throw apiError
        }
    }
}

/// What phase 4 delivers: the response, and the request (as Courier built it, after any redirects) it
/// answers.
struct Delivery: Sendable {
    /// The last request sent, before middleware.
    let request: HTTPRequest
    let response: HTTPResponse
    /// The body, read once.
    let body: ResponseBody?
    /// How many attempts a retry middleware made (0 when none counted).
    let attempts: Int
    /// The redirects followed and the heads sent.
    let trail: Trail
    /// The `Content-Encoding` Courier is decoding `body` from, if any (the head no longer names it).
    var decodedCoding: ContentCoding? = nil
    /// Where the response came from: the network or the client's cache, and whether identical requests
    /// shared it (its decodings are shared too).
    var source = ResponseSource(status: .network)
    /// The call's metrics and tracing, when on (a stream ends its observation when the stream ends).
    var observer: CallObserver? = nil

    /// The body within `limit`, decoded bytes counted when it is being decoded.
    func collectBody(limit: Int) async throws -> Data {
        try await body?.collect(limit: limit, decodedFrom: decodedCoding) ?? Data()
    }
}

/// Phase 6: what a request does with its accepted response. A value type, so the pipeline is specialised
/// for each way of consuming and the common path forms no closure.
protocol ResponseConsumer: Sendable {
    associatedtype Value: Sendable
    /// Whether identical requests may share one response consumed this way (decoded values may; files
    /// written to a destination of each caller's may not).
    static var isShareable: Bool { get }
    /// Consumes the accepted response; failures name its request (see ``APIClient/failureContext(for:)``).
    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> Value
    /// Whether the value is a stream read after the pipeline returns: the HTTP cache is bypassed (a stream is
    /// neither stored nor replayed), and the call's observation ends when the stream does.
    static var isStream: Bool { get }
    /// The response body's size in bytes, for metrics, when the value knows it.
    func bodySize(of value: Value) -> Int?
}

extension ResponseConsumer {
    static var isStream: Bool { false }
    func bodySize(of value: Value) -> Int? { nil }
}

extension APIClient {
    /// The full URL `request` goes to, unredacted.
    func fullURL(of request: HTTPRequest) -> String {
        baseText(for: request) + (request.path ?? "")
    }

    /// Phase 5: the error for an unacceptable status. The body (up to 1 MiB) is decoded as the API's error
    /// body (see ``ErrorBodyDecoding``) with the endpoint's error-body type, decoder and envelope, else the
    /// client's.
    private func statusError(for route: some Route, _ delivery: Delivery) async -> APIError {
        let failure = failureContext(for: delivery)
        let response = delivery.response
        let settings = pipeline.settings
        let data: Data?
        do {
            data = try await delivery.collectBody(limit: min(settings.limits.maxBodySize, 1 << 20))
        } catch {
            if Task.isCancelled { return failure.error(.cancelled, phase: .receiving, response: response) }
            data = nil
        }
        guard let data, !data.isEmpty else {
            return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
        }
        let endpoint = route as? any Endpoint
        let decoding = ErrorBodyDecoding(
            type: route.errorBody ?? settings.responses.errorBody, endpointDecoder: endpoint?.decoder,
            clientDecoder: settings.responses.decoder, envelope: endpoint?.envelope ?? settings.responses.envelope)
        switch decoding.decode(data) {
        case .decoded(let errorBody, let message):
            return failure.error(
                .apiError, phase: .validating, message: message, response: response, body: data, errorBody: errorBody)
        case .mismatch(let type, let error):
            // Where and how it failed, not the decoder's own text, which may quote values from the body.
            return failure.error(
                .unacceptableStatus, phase: .validating,
                message: "the body is not a \(type) (\(FailureContext.outline(error)))", underlying: error,
                response: response, body: data)
        case .notAttempted:
            return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
        }
    }

    /// What a failure of `request` is reported with: its method and redacted URL, the client's redaction, and
    /// what went before (`trail`).
    func failureContext(for request: HTTPRequest, trail: Trail = Trail()) -> FailureContext {
        FailureContext(
            request: request, baseURL: baseText(for: request), redaction: pipeline.settings.redaction,
            trail: trail)
    }

    /// What a failure after `delivery` arrived is reported with.
    func failureContext(for delivery: Delivery) -> FailureContext {
        failureContext(for: delivery.request, trail: delivery.trail)
    }
}

/// Phase 6 for `send`: collects the body within the limit, lets the endpoint inspect it, decodes it.
struct Decoding<E: Endpoint>: ResponseConsumer {
    let endpoint: E
    static var isShareable: Bool { true }

    func bodySize(of value: APIResponse<E.Response>) -> Int? { value.body.count }

    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> APIResponse<E.Response> {
        let response = delivery.response
        let data: Data
        do {
            data = try await delivery.collectBody(limit: client.pipeline.settings.limits.maxBodySize)
        } catch {
            throw client.failureContext(for: delivery).receiving(error, response: response)
        }
        do {
            try endpoint.inspect(response, body: data)
        } catch {
            throw client.failureContext(for: delivery).error(
                .rejected, phase: .inspecting, underlying: error, response: response, body: data)
        }
        do {
            let context = client.pipeline.settings.responses.context(for: endpoint, response: response)
            let value: E.Response
            if let shared = delivery.source.shared {
                // Identical requests shared this response: it is decoded once per way of decoding.
                let endpoint = self.endpoint
                let key = DecodingKey(endpoint: E.self, decoder: context.decoder, envelope: context.envelope)
                value = try await shared.decodings.value(key) { try endpoint.decode(data, context: context) }
            } else {
                value = try endpoint.decode(data, context: context)
            }
            // Decoding can't be interrupted; a cancellation that arrived meanwhile still wins.
            if Task.isCancelled { throw CancellationError() }
            return APIResponse(
                value: value, response: response, request: delivery.request, body: data,
                baseURL: client.baseURL(for: delivery.request), redirects: delivery.trail.redirects,
                cacheStatus: delivery.source.status, httpProtocol: delivery.source.httpProtocol)
        } catch {
            let failure = client.failureContext(for: delivery)
            if Task.isCancelled { throw failure.error(.cancelled, phase: .decoding) }
            if let envelopeFailure = error as? EnvelopeFailure {
                throw failure.error(
                    .logicalError, phase: .decoding, message: envelopeFailure.description, underlying: envelopeFailure,
                    response: response, body: data, errorBody: envelopeFailure.error)
            }
            throw failure.error(
                .decoding, phase: .decoding, message: "\(E.Response.self): \(FailureContext.describe(error))",
                underlying: error, response: response, body: data)
        }
    }
}
