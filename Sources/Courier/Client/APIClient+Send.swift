import Foundation
import HTTPTypes
import OpenAPIRuntime

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
        return try await response(endpoint, request: request, body: body, cancellableAs: endpoint)
    }

    /// Sends `endpoint`'s already built request. When `Key` is ``CancellableByType``, the request is
    /// recorded under `key` (a page reached through a link is recorded as the endpoint it continues).
    func response<E: Endpoint, Key: Endpoint>(
        _ endpoint: E, request: HTTPRequest, body: HTTPBody?, cancellableAs key: Key
    ) async throws(APIError) -> APIResponse<E.Response> {
        guard key is any CancellableByType else {
            return try await untrackedResponse(endpoint, request: request, body: body)
        }
        return try await tracked(as: key, request: request) { () async throws(APIError) in
            try await untrackedResponse(endpoint, request: request, body: body)
        }
    }

    /// Sends a built request in the calling task.
    private func untrackedResponse<E: Endpoint>(_ endpoint: E, request: HTTPRequest, body: HTTPBody?)
        async throws(APIError) -> APIResponse<E.Response>
    {
        if Task.isCancelled { throw failureContext(for: request).error(.cancelled, phase: .building) }
        guard let timeout = endpoint.timeout ?? configuration.timeout else {
            return try await exchange(endpoint, request: request, body: body)
        }
        return try await withTimeLimit(timeout, request: request) { () async throws(APIError) in
            try await exchange(endpoint, request: request, body: body)
        }
    }

    /// Sends the request through the middleware and transport, validates the status, collects and decodes
    /// the body.
    func exchange<E: Endpoint>(_ endpoint: E, request: HTTPRequest, body: HTTPBody?) async throws(APIError)
        -> APIResponse<E.Response>
    {
        let (response, responseBody) = try await acceptedHead(for: endpoint, request: request, body: body)
        let data: Data
        do {
            data = try await BodyCollector.collect(responseBody, limit: configuration.maximumBodySize)
        } catch {
            throw failureContext(for: request).receiving(error, response: response)
        }
        do {
            try endpoint.inspect(response, body: data)
        } catch {
            throw failureContext(for: request).error(
                .rejected, phase: .inspecting, underlying: error, response: response, body: data)
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
            if Task.isCancelled { throw failureContext(for: request).error(.cancelled, phase: .decoding) }
            if let failure = error as? EnvelopeFailure {
                throw failureContext(for: request).error(
                    .logicalError, phase: .decoding, message: failure.description, underlying: failure,
                    response: response, body: data, errorBody: failure.error)
            }
            throw failureContext(for: request).error(
                .decoding, phase: .decoding, message: "\(E.Response.self): \(FailureContext.describe(error))",
                underlying: error, response: response, body: data)
        }
    }

    /// Sends the request and returns the response head and unread body when the status is acceptable;
    /// otherwise throws the API's error (see ``statusError(request:response:body:)``).
    func acceptedHead(for route: some Route, request: HTTPRequest, body: HTTPBody?) async throws(APIError)
        -> (HTTPResponse, HTTPBody?)
    {
        let (response, responseBody, attempts) = try await dispatch(
            request, body: body, operationID: route.operationID)
        let acceptable = route.acceptableStatuses ?? configuration.acceptableStatuses
        guard acceptable.contains(response.status) else {
            var error = await statusError(request: request, response: response, body: responseBody)
            if attempts > 1 { error.attempts = attempts }
            throw error
        }
        return (response, responseBody)
    }

    /// Runs the middleware chain, outermost first, and then the transport. Also returns how many attempts
    /// a retry middleware made (0 when none counted).
    private func dispatch(_ request: HTTPRequest, body: HTTPBody?, operationID: String) async throws(APIError)
        -> (HTTPResponse, HTTPBody?, Int)
    {
        let url = resolvedBaseURL
        guard !middlewares.isEmpty else {
            do {
                let (response, body) = try await transport.send(
                    request, body: body, baseURL: url, operationID: operationID)
                return (response, body, 0)
            } catch {
                throw failureContext(for: request).sending(error, fromTransport: true)
            }
        }
        let record = ExchangeRecord(redaction: configuration.redaction)
        @Sendable func next(_ index: Int, _ request: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            guard index < middlewares.count else {
                do {
                    let result = try await transport.send(request, body: body, baseURL: url, operationID: operationID)
                    record.noteTransportSuccess()
                    return result
                } catch {
                    record.noteTransportFailure()
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
            let (response, responseBody) = try await ExchangeRecord.$current.withValue(record) {
                try await next(0, request, body, url)
            }
            return (response, responseBody, record.attempts)
        } catch {
            var failure = failureContext(for: request).sending(error, fromTransport: record.didTransportFail)
            if record.attempts > 1 { failure.attempts = record.attempts }
            throw failure
        }
    }

    /// The error for an unacceptable status: the API's decoded error body when the client names its type
    /// and it decodes, otherwise the status with a snippet of whatever came back.
    private func statusError(request: HTTPRequest, response: HTTPResponse, body: HTTPBody?) async -> APIError {
        let failure = failureContext(for: request)
        let data: Data?
        do {
            data = try await BodyCollector.collect(body, limit: min(configuration.maximumBodySize, 1 << 20))
        } catch {
            if Task.isCancelled { return failure.error(.cancelled, phase: .receiving, response: response) }
            data = nil
        }
        if let data, !data.isEmpty, let errorBody = decodeErrorBody(data) {
            return failure.error(.apiError, phase: .validating, response: response, body: data, errorBody: errorBody)
        }
        return failure.error(.unacceptableStatus, phase: .validating, response: response, body: data)
    }

    private func decodeErrorBody(_ data: Data) -> (any Sendable)? {
        guard let type = configuration.errorBody else { return nil }
        return Self.decode(type, from: data, using: configuration.jsonDecoder)
    }

    private static func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data, using decoder: JSONDecoder)
        -> (any Sendable)?
    {
        try? decoder.decode(type, from: data)
    }

    func failureContext(for request: HTTPRequest) -> FailureContext {
        let baseText = (try? base.get().text) ?? baseURL.absoluteString
        return FailureContext(request: request, baseURL: baseText, redaction: configuration.redaction)
    }
}
