import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The one request pipeline. Every request a client sends, whether by ``APIClient/send(_:)``,
/// ``APIClient/download(_:to:resumingFrom:progress:)`` or a page of ``APIClient/pages(_:maxPages:)``,
/// goes through ``APIClient/exchange(_:request:body:trackedAs:consumer:)`` below, which reads top to bottom:
///
/// 1. build (the caller has: ``APIClient/makeRequest(for:)``), and stop at once if already cancelled;
/// 2. track the request for ``APIClient/cancelAll(_:where:)`` when its type is ``CancellableByType``;
/// 3. run it under the endpoint's or client's time limit;
/// 4. send it through the middleware chain and the transport;
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
        let limit = route.timeout ?? configuration.timeout
        let isTracked = key is any CancellableByType
        // The common case, no tracking and no time limit, runs the phases in the calling task with no closure.
        guard isTracked || limit != nil else {
            return try await sendValidateConsume(route, request: request, body: body, consumer: consumer)
        }
        @Sendable func sendAndConsume() async throws(APIError) -> Consumer.Value {
            try await sendValidateConsume(route, request: request, body: body, consumer: consumer)
        }
        @Sendable func withinTimeLimit() async throws(APIError) -> Consumer.Value {
            guard let limit else { return try await sendAndConsume() }
            return try await run(within: limit, request: request, sendAndConsume)
        }
        guard isTracked else { return try await withinTimeLimit() }
        return try await tracked(as: key, request: request, withinTimeLimit)
    }

    /// Phases 4 to 6: send through the middleware and transport, validate the status, consume the response.
    private func sendValidateConsume<R: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, consumer: Consumer
    ) async throws(APIError) -> Consumer.Value {
        let (response, responseBody, attempts) = try await dispatch(request, body: body, operationID: route.operationID)
        guard (route.acceptableStatuses ?? configuration.acceptableStatuses).contains(response.status) else {
            var error = await statusError(for: route, request: request, response: response, body: responseBody)
            if attempts > 1 { error.attempts = attempts }
            throw error
        }
        return try await consumer.consume(response, body: responseBody, of: request, client: self)
    }
}

/// Phase 6: what a request does with its accepted response. A value type, so the pipeline is specialised
/// for each way of consuming and the common path forms no closure.
protocol ResponseConsumer: Sendable {
    associatedtype Value: Sendable
    /// Consumes the accepted response of `request`; failures name `request` (see ``APIClient/failureContext(for:)``).
    func consume(_ response: HTTPResponse, body: HTTPBody?, of request: HTTPRequest, client: APIClient)
        async throws(APIError) -> Value
}

// MARK: - The phases, in order

extension APIClient {
    /// Phase 2: runs `operation` in a child task recorded under `key`, so that ``cancelAll(_:where:)`` can
    /// reach it; cancelling the calling task still cancels it. Costs one task hop, paid only by
    /// ``CancellableByType`` endpoints.
    private func tracked<Key: Route, Value: Sendable>(
        as key: Key, request: HTTPRequest, _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let task = Task { () async throws -> Value in try await operation() }
        let token = registry.add(key) { task.cancel() }
        defer { registry.remove(Key.self, token: token) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch {
            throw interruption(error, of: request)
        }
    }

    /// Phase 3: `operation`, or ``APIError/Kind/timedOut`` when `limit` passes first (the operation is then
    /// cancelled). Only requests with a time limit pay for the timer task.
    private func run<Value: Sendable>(
        within limit: Duration, request: HTTPRequest,
        _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        do {
            if let value = try await TimeLimit.run(limit, operation) { return value }
        } catch {
            throw interruption(error, of: request)
        }
        throw failureContext(for: request).error(
            .timedOut, phase: .sending, message: "no complete response within \(limit)")
    }

    /// An error out of a child task of phases 2 and 3: the operation's own ``APIError``, or else the only
    /// other thing a task running it can throw, a `CancellationError`.
    private func interruption(_ error: any Error, of request: HTTPRequest) -> APIError {
        error as? APIError ?? failureContext(for: request).error(.cancelled, phase: .sending, underlying: error)
    }

    /// Phase 4: the middleware chain, outermost first, then the transport. Also returns how many attempts a
    /// retry middleware made (0 when none counted). With middleware, a ``MiddlewareContext`` is bound for
    /// the chain to read and report into.
    private func dispatch(_ request: HTTPRequest, body: HTTPBody?, operationID: String)
        async throws(APIError) -> (HTTPResponse, HTTPBody?, Int)
    {
        let url = baseURL(for: request)
        guard !middlewares.isEmpty else {
            do {
                let (response, body) = try await transport.send(
                    request, body: body, baseURL: url, operationID: operationID)
                return (response, body, 0)
            } catch {
                throw failureContext(for: request).sending(error, fromTransport: true)
            }
        }
        let context = MiddlewareContext(redaction: configuration.redaction)
        @Sendable func next(_ index: Int, _ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            guard index < middlewares.count else {
                do {
                    let result = try await transport.send(request, body: body, baseURL: url, operationID: operationID)
                    context.transportSucceeded()
                    return result
                } catch {
                    context.transportFailed()
                    throw error
                }
            }
            return try await middlewares[index].intercept(
                request, body: body, baseURL: url, operationID: operationID
            ) { request, body, url in
                try await next(index + 1, request, body, url)
            }
        }
        do {
            let (response, responseBody) = try await MiddlewareContext.$current.withValue(context) {
                try await next(0, request, body, url)
            }
            return (response, responseBody, context.attempts)
        } catch {
            var error = failureContext(for: request).sending(error, fromTransport: context.didTransportFail)
            if context.attempts > 1 { error.attempts = context.attempts }
            throw error
        }
    }

    /// Phase 5: the error for an unacceptable status. The body (up to 1 MiB) is decoded as the API's error
    /// body (see ``ErrorBodyDecoding``) with the endpoint's error-body type, decoder and envelope, else the
    /// client's.
    private func statusError(for route: some Route, request: HTTPRequest, response: HTTPResponse, body: HTTPBody?)
        async -> APIError
    {
        let failure = failureContext(for: request)
        let data: Data?
        do {
            data = try await BodyCollector.collect(body, limit: min(configuration.maxBodySize, 1 << 20))
        } catch {
            if Task.isCancelled { return failure.error(.cancelled, phase: .receiving, response: response) }
            data = nil
        }
        guard let data, !data.isEmpty else {
            return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
        }
        let endpoint = route as? any Endpoint
        let decoding = ErrorBodyDecoding(
            type: route.errorBody ?? configuration.errorBody, endpointDecoder: endpoint?.decoder,
            clientDecoder: configuration.bodyDecoder ?? configuration.jsonDecoder,
            envelope: endpoint?.envelope ?? configuration.envelope)
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

    /// What a failure of `request` is reported with: its method and redacted URL, and the client's redaction.
    func failureContext(for request: HTTPRequest) -> FailureContext {
        FailureContext(request: request, baseURL: baseText(for: request), redaction: configuration.redaction)
    }
}

/// Phase 6 for `send`: collects the body within the limit, lets the endpoint inspect it, decodes it.
struct Decoding<E: Endpoint>: ResponseConsumer {
    let endpoint: E

    func consume(_ response: HTTPResponse, body: HTTPBody?, of request: HTTPRequest, client: APIClient)
        async throws(APIError) -> APIResponse<E.Response>
    {
        let data: Data
        do {
            data = try await BodyCollector.collect(body, limit: client.configuration.maxBodySize)
        } catch {
            throw client.failureContext(for: request).receiving(error, response: response)
        }
        do {
            try endpoint.inspect(response, body: data)
        } catch {
            throw client.failureContext(for: request).error(
                .rejected, phase: .inspecting, underlying: error, response: response, body: data)
        }
        do {
            let context = ResponseContext(
                response: response,
                decoder: endpoint.decoder ?? client.configuration.bodyDecoder ?? client.configuration.jsonDecoder,
                envelope: endpoint.envelope ?? client.configuration.envelope)
            let value = try endpoint.decode(data, context: context)
            // Decoding can't be interrupted; a cancellation that arrived meanwhile still wins.
            if Task.isCancelled { throw CancellationError() }
            return APIResponse(
                value: value, response: response, request: request, body: data, baseURL: client.baseURL(for: request))
        } catch {
            let failure = client.failureContext(for: request)
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
