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
/// 4. send it through the middleware chain, then the last stages before the network: the cookie jar's
///    cookies are added, identical requests in flight share one exchange when coalescing is on, the HTTP
///    cache answers or revalidates, and the transport sends; each response's cookies are stored;
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
        // Metrics and tracing cost two checks unless the process (or task) has a backend for them.
        guard let observer = CallObserver.start(route: route, request: request, client: self) else {
            return try await phases(
                route, request: request, body: body, trackedAs: key, consumer: consumer, observer: nil)
        }
        do {
            let value = try await observer.bound { () async throws(APIError) -> Consumer.Value in
                try await phases(
                    route, request: request, body: body, trackedAs: key, consumer: consumer, observer: observer)
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

    /// Phases 2 to 6, observed by `observer` when metrics or tracing are on.
    private func phases<R: Route, Key: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, trackedAs key: Key, consumer: Consumer,
        observer: CallObserver?
    ) async throws(APIError) -> Consumer.Value {
        let limit = route.timeout ?? configuration.timeout
        let isTracked = key is any CancellableByType
        // The common case, no tracking and no time limit, runs the phases in the calling task with no closure.
        guard isTracked || limit != nil else {
            return try await sendValidateConsume(
                route, request: request, body: body, consumer: consumer, observer: observer)
        }
        @Sendable func sendAndConsume() async throws(APIError) -> Consumer.Value {
            try await sendValidateConsume(route, request: request, body: body, consumer: consumer, observer: observer)
        }
        @Sendable func withinTimeLimit() async throws(APIError) -> Consumer.Value {
            guard let limit else { return try await sendAndConsume() }
            return try await run(within: limit, request: request, sendAndConsume)
        }
        guard isTracked else { return try await withinTimeLimit() }
        return try await tracked(as: key, request: request, withinTimeLimit)
    }

    /// Phases 4 to 6: send through the middleware and transport (following redirects), validate the
    /// status, consume the response.
    private func sendValidateConsume<R: Route, Consumer: ResponseConsumer>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, consumer: Consumer, observer: CallObserver?
    ) async throws(APIError) -> Consumer.Value {
        let stage = LastStage(
            cacheMode: Consumer.isStream ? .bypass : route.cacheMode ?? configuration.cacheMode,
            coalesces: (route.coalesces ?? configuration.coalescesRequests) && Consumer.isShareable && body == nil,
            keepsBuffers: Consumer.readsBuffers, observer: observer)
        var delivery = try await dispatch(
            request, body: body, operationID: route.operationID, stage: stage, trail: Trail(), stripsCredentials: false)
        if RedirectStep.isRedirect(delivery.response) {
            delivery = try await followRedirects(from: delivery, body: body, route: route, stage: stage)
        }
        if delivery.response.headerFields.has(.contentEncoding) { delivery = try await decodingContent(delivery) }
        guard (route.acceptableStatuses ?? configuration.acceptableStatuses).contains(delivery.response.status) else {
            var error = await statusError(for: route, delivery)
            if delivery.attempts > 1 { error.attempts = delivery.attempts }
            throw error
        }
        if let observer {
            observer.delivered(
                status: delivery.response.status, attempts: delivery.attempts,
                redirects: delivery.trail.redirects.count,
                source: delivery.source)
            delivery.observer = observer
        }
        return try await consumer.consume(delivery, client: self)
    }
}

/// What phase 4 delivers: the response, and the request (as Courier built it, after any redirects) it
/// answers.
struct Delivery: Sendable {
    /// The last request sent, before middleware.
    let request: HTTPRequest
    let response: HTTPResponse
    let body: HTTPBody?
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
}

/// How a request goes through the stages before the network: its cache mode, and whether identical
/// requests in flight may share it.
struct LastStage: Sendable {
    let cacheMode: CacheMode
    let coalesces: Bool
    /// Whether the consumer can take the transport's own buffers: a download writes them to its file as they
    /// are, where `HTTPBody` would copy each once more; `send` collects them without `HTTPBody`'s iterators.
    var keepsBuffers = false
    /// The call's metrics and tracing, when on: each request the transport sends is a child span.
    var observer: CallObserver? = nil
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
    /// Whether the consumer reads the transport's own buffers when the delivery has them
    /// (``ResponseSource/buffers``) instead of its `HTTPBody`: a download writes them to its file as they are,
    /// `send` collects them (one copy, and none of `HTTPBody`'s iterator layers).
    static var readsBuffers: Bool { get }
}

extension ResponseConsumer {
    static var isStream: Bool { false }
    static var readsBuffers: Bool { false }
    func bodySize(of value: Value) -> Int? { nil }
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

    /// Phase 4: the middleware chain, outermost first, then the transport. With middleware, a
    /// ``MiddlewareContext`` is bound for the chain to read and report into; it records the heads the
    /// transport received, so errors hide what middleware added. On a redirect to another origin
    /// (`stripsCredentials`), the credentials middleware adds are removed before the transport sees them.
    private func dispatch(
        _ request: HTTPRequest, body: HTTPBody?, operationID: String, stage: LastStage, trail: Trail,
        stripsCredentials: Bool
    ) async throws(APIError) -> Delivery {
        let url = baseURL(for: request)
        guard !middlewares.isEmpty else {
            let head = wireHead(request, baseURL: url)
            // The jar's cookies are secrets of this exchange: errors must hide them too.
            let trail = configuration.cookieJar == nil ? trail : trail.adding(sent: [head])
            do {
                let (response, responseBody, source) = try await send(
                    head, body: body, baseURL: url, operationID: operationID, stage: stage)
                return Delivery(
                    request: request, response: response, body: responseBody, attempts: 0, trail: trail,
                    source: source)
            } catch let failure as SharedBodyFailure {
                throw failureContext(for: request, trail: trail).receiving(
                    failure.underlying, response: failure.response)
            } catch {
                throw failureContext(for: request, trail: trail).sending(error, fromTransport: true)
            }
        }
        let context = MiddlewareContext(redaction: configuration.redaction, baseOrigin: try? base.get().origin)
        let redaction = configuration.redaction
        @Sendable func next(_ index: Int, _ outgoing: HTTPRequest, _ body: HTTPBody?, _ url: URL) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            guard index < middlewares.count else {
                let head = wireHead(
                    stripsCredentials
                        ? RedirectStep.withoutCredentials(outgoing, built: request, redaction: redaction) : outgoing,
                    baseURL: url)
                context.recordSent(head)
                context.source = ResponseSource(status: .network)
                do {
                    let (response, responseBody, source) = try await send(
                        head, body: body, baseURL: url, operationID: operationID, stage: stage)
                    context.transportSucceeded()
                    context.source = source
                    return (response, responseBody)
                } catch {
                    context.transportFailed()
                    throw error
                }
            }
            return try await middlewares[index].intercept(
                outgoing, body: body, baseURL: url, operationID: operationID
            ) { outgoing, body, url in
                try await next(index + 1, outgoing, body, url)
            }
        }
        do {
            let (response, responseBody) = try await MiddlewareContext.$current.withValue(context) {
                try await next(0, request, body, url)
            }
            return Delivery(
                request: request, response: response, body: responseBody, attempts: context.attempts,
                trail: trail.adding(sent: context.sentRequests), source: context.source)
        } catch let failure as SharedBodyFailure {
            throw failureContext(for: request, trail: trail.adding(sent: context.sentRequests)).receiving(
                failure.underlying, response: failure.response)
        } catch {
            var error = failureContext(for: request, trail: trail.adding(sent: context.sentRequests)).sending(
                error, fromTransport: context.didTransportFail)
            if context.attempts > 1 { error.attempts = context.attempts }
            throw error
        }
    }

    /// Phase 4, continued: follows the redirects `first` starts, each hop through the middleware and the
    /// transport again, until a response that is not one to follow (see ``RedirectPolicy``).
    private func followRedirects(from first: Delivery, body: HTTPBody?, route: some Route, stage: LastStage)
        async throws(APIError) -> Delivery
    {
        let policy = route.redirectPolicy ?? configuration.redirectPolicy
        var delivery = first
        var body = body
        var visited: Set<String> = ["\(first.request.method.rawValue) \(fullURL(of: first.request))"]
        let startOrigin = URL(string: baseText(for: first.request)).flatMap(Origin.init)
        while true {
            let url = fullURL(of: delivery.request)
            let step = RedirectStep.next(
                after: delivery.response, to: delivery.request, at: url, body: body,
                followed: delivery.trail.redirects.count, from: startOrigin, policy: policy,
                redaction: configuration.redaction)
            let hop: HTTPRequest
            let crossesOrigin: Bool
            var trail = delivery.trail
            switch step {
            case .deliver:
                return delivery
            case .refuse(let kind, let message):
                await Self.discard(delivery.body)
                var error = failureContext(for: delivery.request, trail: trail).error(
                    kind, phase: .redirecting, message: Self.chainMessage(message, trail.redirects),
                    response: delivery.response)
                if delivery.attempts > 1 { error.attempts = delivery.attempts }
                throw error
            case .follow(let next, let nextBody, let redirect, let leaves):
                await Self.discard(delivery.body)
                trail.redirects.append(redirect)
                trail.sent.append(delivery.request)
                let key = "\(next.method.rawValue) \(fullURL(of: next))"
                guard visited.insert(key).inserted else {
                    throw failureContext(for: delivery.request, trail: trail).error(
                        .tooManyRedirects, phase: .redirecting,
                        message: Self.chainMessage("the redirects loop", trail.redirects), response: delivery.response)
                }
                hop = next
                body = nextBody
                crossesOrigin = leaves
            }
            delivery = try await dispatch(
                hop, body: body, operationID: route.operationID, stage: stage, trail: trail,
                stripsCredentials: crossesOrigin)
        }
    }

    /// The last stage before the network: the client's cache answers `head` or passes it to the transport
    /// (made conditional when it revalidates), and every response from the network has its `Set-Cookie`
    /// fields stored in the cookie jar.
    private func send(
        _ head: HTTPRequest, body: HTTPBody?, baseURL url: URL, operationID: String, stage: LastStage
    ) async throws -> (HTTPResponse, HTTPBody?, ResponseSource) {
        // Most requests: no cache, no coalescing, not observed. Straight to the transport, two async frames
        // (`fetch`, `network`) fewer.
        if !stage.coalesces, configuration.cache == nil, stage.observer == nil {
            #if canImport(AsyncHTTPClient)
                // Only without middleware: a middleware may have replaced the body the buffers belong to.
                if stage.keepsBuffers, middlewares.isEmpty, let ahc = transport as? HTTPClientTransport {
                    let (response, responseBody, buffers) = try await ahc.sendKeepingBuffers(
                        head, body: body, baseURL: url)
                    storeCookies(of: response, to: head, baseURL: url)
                    return (response, responseBody, ResponseSource(status: .network, buffers: buffers))
                }
            #endif
            let (response, responseBody) = try await transport.send(
                head, body: body, baseURL: url, operationID: operationID)
            storeCookies(of: response, to: head, baseURL: url)
            return (response, responseBody, ResponseSource(status: .network))
        }
        guard stage.coalesces, body == nil, head.method == .get || head.method == .head else {
            let (response, responseBody, status) = try await fetch(
                head, body: body, baseURL: url, operationID: operationID, cacheMode: stage.cacheMode,
                observer: stage.observer)
            return (response, responseBody, ResponseSource(status: status))
        }
        // Identical requests as they go out (credentials and cookies included) share one exchange, whose
        // body is read in full once.
        let key = RequestKey(
            method: head.method, url: url.textWithoutTrailingSlash + (head.path ?? ""),
            fields: Array(head.headerFields), cacheMode: stage.cacheMode)
        let limit = configuration.maxBodySize
        let outcome = await coalescer.run(key) { () async throws -> SharedResponse in
            let (response, responseBody, status) = try await fetch(
                head, body: nil, baseURL: url, operationID: operationID, cacheMode: stage.cacheMode,
                observer: stage.observer)
            var data: Data?
            if let responseBody {
                // A redirect's body is only read to be dropped (see `discard`): 64 KiB at most.
                let isRedirect = (300..<400).contains(response.status.code)
                do {
                    data = try await BodyCollector.collect(responseBody, limit: isRedirect ? 64 * 1024 : limit)
                } catch  where isRedirect {
                    data = nil
                } catch {
                    throw SharedBodyFailure(response: response, underlying: error)
                }
            }
            return SharedResponse(response: response, body: data, cacheStatus: status)
        }
        guard let shared = try outcome?.get() else { throw CancellationError() }
        return (
            shared.response, shared.body.map { HTTPBody($0) },
            ResponseSource(status: shared.cacheStatus, shared: shared)
        )
    }

    /// The cache's answer, or the transport's.
    private func fetch(
        _ head: HTTPRequest, body: HTTPBody?, baseURL url: URL, operationID: String, cacheMode: CacheMode,
        observer: CallObserver?
    ) async throws -> (HTTPResponse, HTTPBody?, CacheStatus) {
        guard let cache = configuration.cache else {
            // Without a cache, no closure: this is every request's path.
            let (response, responseBody) = try await network(
                head, body: body, baseURL: url, operationID: operationID, observer: observer)
            return (response, responseBody, .network)
        }
        let target = url.textWithoutTrailingSlash + (head.path ?? "")
        let credentials = configuration.redaction.headerNames
        return try await cache.exchange(head, url: target, mode: cacheMode, credentialFields: credentials) { head in
            try await network(head, body: body, baseURL: url, operationID: operationID, observer: observer)
        }
    }

    /// The transport's answer to `head` (a request span of the call's when it is observed), its cookies stored.
    private func network(
        _ head: HTTPRequest, body: HTTPBody?, baseURL url: URL, operationID: String, observer: CallObserver?
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let result =
            if let observer {
                try await observer.transportCall(
                    head, url: url.textWithoutTrailingSlash + (head.path ?? ""), redaction: configuration.redaction
                ) { head in
                    try await transport.send(head, body: body, baseURL: url, operationID: operationID)
                }
            } else {
                try await transport.send(head, body: body, baseURL: url, operationID: operationID)
            }
        storeCookies(of: result.0, to: head, baseURL: url)
        return result
    }

    /// Stores the cookies `response` sets in the client's cookie jar, if it has one.
    private func storeCookies(of response: HTTPResponse, to head: HTTPRequest, baseURL url: URL) {
        if let jar = configuration.cookieJar, response.headerFields.contains(.setCookie) {
            jar.store(response, url: url.textWithoutTrailingSlash + (head.path ?? ""))
        }
    }

    /// `request` as the transport receives it: the cookie jar's cookies for it added, its `Cookie` fields
    /// joined into one, as RFC 6265 requires on HTTP/1.1 (`HTTPFields` splits a `Cookie` value set through its
    /// subscript into one field per cookie, as HTTP/2 allows), and `Accept-Encoding: gzip, deflate` unless it
    /// names its own (Courier decodes both as the body streams, see ``DecodedChunks``).
    private func wireHead(_ request: HTTPRequest, baseURL url: URL) -> HTTPRequest {
        var head = request
        configuration.cookieJar?.addCookies(to: &head, url: url.textWithoutTrailingSlash + (request.path ?? ""))
        if head.headerFields.count(of: .cookie) > 1 {
            let cookies = head.headerFields[fields: .cookie]
            head.headerFields[fields: .cookie] = [
                HTTPField(name: .cookie, value: cookies.map(\.value).joined(separator: "; "))
            ]
        }
        // A range applies to the encoded bytes, which can't be decoded from the middle: ranges go unencoded.
        if !request.headerFields.has(.acceptEncoding) && !request.headerFields.has(.range) {
            head.headerFields.append(HTTPField(name: .acceptEncoding, value: ContentCoding.accepted))
        }
        return head
    }

    /// Phase 4, last step: `delivery` with its body decoded as it streams when `Content-Encoding` names
    /// gzip or deflate, and `Content-Encoding` and `Content-Length` (which describe the encoded bytes) removed
    /// from the head. A coding Courier can't decode is ``APIError/Kind/contentDecoding``, never bytes handed
    /// to a decoder as they are.
    private func decodingContent(_ delivery: Delivery) async throws(APIError) -> Delivery {
        guard delivery.body != nil, let found = ContentCoding.of(delivery.response) else { return delivery }
        switch found {
        case .failure(let failure):
            await Self.discard(delivery.body)
            throw failureContext(for: delivery).error(
                .contentDecoding, phase: .receiving, message: failure.description, response: delivery.response)
        case .success(let coding) where delivery.response.status == .partialContent:
            await Self.discard(delivery.body)
            throw failureContext(for: delivery).error(
                .contentDecoding, phase: .receiving,
                message: "a partial (206) response encoded as \(coding.rawValue) can't be decoded on its own",
                response: delivery.response)
        case .success(let coding):
            var response = delivery.response
            response.headerFields[.contentEncoding] = nil
            response.headerFields[.contentLength] = nil
            let body = delivery.body.map {
                HTTPBody(DecodedChunks(base: $0, coding: coding), length: .unknown, iterationBehavior: .single)
            }
            return Delivery(
                request: delivery.request, response: response, body: body, attempts: delivery.attempts,
                trail: delivery.trail, decodedCoding: coding, source: delivery.source.withoutBuffers
            )
        }
    }

    /// `message`, then the redirect chain: `more than 10 redirects: 302 GET http://a/1 → http://a/2, …`.
    private static func chainMessage(_ message: String, _ chain: [Redirect]) -> String {
        chain.isEmpty ? message : message + ": " + chain.map(\.description).joined(separator: ", ")
    }

    /// Reads and drops up to 64 KiB of a redirect's body, so the connection can serve the next hop; a longer
    /// body is abandoned.
    private static func discard(_ body: HTTPBody?) async {
        _ = try? await BodyCollector.collect(body, limit: 64 * 1024)
    }

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
        let data: Data?
        do {
            data = try await BodyCollector.collect(delivery, limit: min(configuration.maxBodySize, 1 << 20))
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

    /// What a failure of `request` is reported with: its method and redacted URL, the client's redaction, and
    /// what went before (`trail`).
    func failureContext(for request: HTTPRequest, trail: Trail = Trail()) -> FailureContext {
        FailureContext(
            request: request, baseURL: baseText(for: request), redaction: configuration.redaction, trail: trail)
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
    static var readsBuffers: Bool { true }

    func bodySize(of value: APIResponse<E.Response>) -> Int? { value.body.count }

    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> APIResponse<E.Response> {
        let response = delivery.response
        let data: Data
        do {
            data = try await BodyCollector.collect(delivery, limit: client.configuration.maxBodySize)
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
            let context = ResponseContext(
                response: response,
                decoder: endpoint.decoder ?? client.configuration.bodyDecoder ?? client.configuration.jsonDecoder,
                envelope: endpoint.envelope ?? client.configuration.envelope)
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
                cacheStatus: delivery.source.status)
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
