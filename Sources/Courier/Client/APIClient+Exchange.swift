import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The one request pipeline. Every request a client sends, whether by ``APIClient/send(_:)``,
/// ``APIClient/download(_:to:resumingFrom:progress:)`` or a page of ``APIClient/pages(_:maxPages:)``,
/// goes through ``APIClient/exchange(_:request:body:trackedAs:consume:)`` below, which reads top to bottom:
///
/// 1. build (the caller has: ``APIClient/makeRequest(for:)``), and stop at once if already cancelled;
/// 2. track the request for ``APIClient/cancelAll(_:where:)`` when its type is ``CancellableByType``;
/// 3. run it under the endpoint's or client's time limit;
/// 4. send it through the middleware chain and the transport;
/// 5. validate the status, decoding the API's error body when it is not acceptable;
/// 6. consume the accepted response: `send` collects, inspects and decodes it; `download` streams it to a file.
///
/// Each phase maps its own failures to an ``APIError`` (through ``FailureContext``) where it runs.
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
    func response<E: Endpoint, Key: Route>(_ endpoint: E, request: HTTPRequest, body: HTTPBody?, trackedAs key: Key)
        async throws(APIError) -> APIResponse<E.Response>
    {
        try await exchange(endpoint, request: request, body: body, trackedAs: key) {
            (response, responseBody, failure) async throws(APIError) in
            try await decodedResponse(
                endpoint, request: request, response: response, body: responseBody, failure: failure)
        }
    }

    /// Runs one request through every phase of the pipeline and hands the accepted response to `consume`.
    func exchange<R: Route, Key: Route, Value: Sendable>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, trackedAs key: Key,
        consume: @escaping @Sendable (HTTPResponse, HTTPBody?, FailureContext) async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let failure = failureContext(for: request)
        if Task.isCancelled { throw failure.error(.cancelled, phase: .building) }

        @Sendable func sendValidateConsume() async throws(APIError) -> Value {
            let (response, responseBody, attempts) = try await dispatch(
                request, body: body, operationID: route.operationID, failure: failure)
            guard (route.acceptableStatuses ?? configuration.acceptableStatuses).contains(response.status) else {
                var error = await statusError(for: route, response: response, body: responseBody, failure: failure)
                if attempts > 1 { error.attempts = attempts }
                throw error
            }
            return try await consume(response, responseBody, failure)
        }

        @Sendable func withinTimeLimit() async throws(APIError) -> Value {
            guard let limit = route.timeout ?? configuration.timeout else { return try await sendValidateConsume() }
            return try await Self.run(within: limit, failure: failure, sendValidateConsume)
        }

        guard key is any CancellableByType else { return try await withinTimeLimit() }
        return try await tracked(as: key, failure: failure, withinTimeLimit)
    }
}

// MARK: - The phases, in order

extension APIClient {
    /// Phase 2: runs `operation` in a child task recorded under `key`, so that ``cancelAll(_:where:)`` can
    /// reach it; cancelling the calling task still cancels it. Costs one task hop, paid only by
    /// ``CancellableByType`` endpoints.
    private func tracked<Key: Route, Value: Sendable>(
        as key: Key, failure: FailureContext, _ operation: @escaping @Sendable () async throws(APIError) -> Value
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
        } catch let error as APIError {
            throw error
        } catch {
            throw failure.error(.cancelled, phase: .sending, underlying: error)
        }
    }

    /// Phase 3: `operation`, or ``APIError/Kind/timedOut`` when `limit` passes first (the operation is then
    /// cancelled). Only requests with a time limit pay for the timer task.
    private static func run<Value: Sendable>(
        within limit: Duration, failure: FailureContext,
        _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        do {
            if let value = try await TimeLimit.run(limit, operation) { return value }
        } catch let error as APIError {
            throw error
        } catch {
            throw failure.error(.cancelled, phase: .sending, underlying: error)
        }
        throw failure.error(.timedOut, phase: .sending, message: "no complete response within \(limit)")
    }

    /// Phase 4: the middleware chain, outermost first, then the transport. Also returns how many attempts a
    /// retry middleware made (0 when none counted). With middleware, a ``MiddlewareContext`` is bound for
    /// the chain to read and report into.
    private func dispatch(_ request: HTTPRequest, body: HTTPBody?, operationID: String, failure: FailureContext)
        async throws(APIError) -> (HTTPResponse, HTTPBody?, Int)
    {
        let url = resolvedBaseURL
        guard !middlewares.isEmpty else {
            do {
                let (response, body) = try await transport.send(
                    request, body: body, baseURL: url, operationID: operationID)
                return (response, body, 0)
            } catch {
                throw failure.sending(error, fromTransport: true)
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
            var error = failure.sending(error, fromTransport: context.didTransportFail)
            if context.attempts > 1 { error.attempts = context.attempts }
            throw error
        }
    }

    /// Phase 5: the error for an unacceptable status. The body (up to 1 MiB) is decoded as the API's error
    /// body (see ``ErrorBodyDecoding``) with the endpoint's decoder and envelope, else the client's.
    private func statusError(for route: some Route, response: HTTPResponse, body: HTTPBody?, failure: FailureContext)
        async -> APIError
    {
        let data: Data?
        do {
            data = try await BodyCollector.collect(body, limit: min(configuration.maximumBodySize, 1 << 20))
        } catch {
            if Task.isCancelled { return failure.error(.cancelled, phase: .receiving, response: response) }
            data = nil
        }
        guard let data, !data.isEmpty else {
            return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
        }
        let endpoint = route as? any Endpoint
        let decoding = ErrorBodyDecoding(
            type: route.errorBody ?? configuration.errorBody,
            decoder: endpoint?.decoder ?? configuration.jsonDecoder,
            envelope: endpoint?.envelope ?? configuration.envelope)
        switch decoding.decode(data) {
        case .decoded(let errorBody, let message):
            return failure.error(
                .apiError, phase: .validating, message: message, response: response, body: data, errorBody: errorBody)
        case .mismatch(let type, let error):
            return failure.error(
                .unacceptableStatus, phase: .validating,
                message: "the body is not a \(type): \(FailureContext.describe(error))", underlying: error,
                response: response, body: data)
        case .notAttempted:
            return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
        }
    }

    /// Phase 6 for `send`: collects the body within the limit, lets the endpoint inspect it, decodes it.
    private func decodedResponse<E: Endpoint>(
        _ endpoint: E, request: HTTPRequest, response: HTTPResponse, body: HTTPBody?, failure: FailureContext
    ) async throws(APIError) -> APIResponse<E.Response> {
        let data: Data
        do {
            data = try await BodyCollector.collect(body, limit: configuration.maximumBodySize)
        } catch {
            throw failure.receiving(error, response: response)
        }
        do {
            try endpoint.inspect(response, body: data)
        } catch {
            throw failure.error(.rejected, phase: .inspecting, underlying: error, response: response, body: data)
        }
        do {
            let context = ResponseContext(
                response: response, decoder: endpoint.decoder ?? configuration.jsonDecoder,
                envelope: endpoint.envelope ?? configuration.envelope)
            let value = try endpoint.decode(data, context: context)
            // Decoding can't be interrupted; a cancellation that arrived meanwhile still wins.
            if Task.isCancelled { throw CancellationError() }
            return APIResponse(value: value, response: response, request: request, body: data, baseURL: resolvedBaseURL)
        } catch {
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

    /// What a failure of `request` is reported with: its method and redacted URL, and the client's redaction.
    func failureContext(for request: HTTPRequest) -> FailureContext {
        let baseText = (try? base.get().text) ?? baseURL.absoluteString
        return FailureContext(request: request, baseURL: baseText, redaction: configuration.redaction)
    }
}
