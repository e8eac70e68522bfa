import CoreMetrics
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Tracing

/// What one call (a `send`, a download, a page, a stream) reports to swift-metrics and
/// swift-distributed-tracing. Made only when the process (or the calling task, with `withMetricsFactory` or
/// `withTracer`) has a backend: otherwise ``start(route:request:client:)`` returns `nil` after two checks and
/// nothing else is done, allocated or recorded.
///
/// Tracing follows the OpenTelemetry HTTP client conventions: one span per call (`GET /users/{}`, kind
/// client) with `http.request.method`, `url.full` (redacted), `url.template`, `server.address`,
/// `server.port`, `http.response.status_code`, `error.type`, `courier.retry_count`, `courier.cache_status` and
/// `courier.coalesced` (when identical requests shared the response); under it one span per
/// request the transport sends (each attempt and each redirect hop) with `http.request.resend_count` from the
/// second on, whose context is injected into the request's header fields (`traceparent` with a W3C
/// propagator). Every span ends exactly once: when the response is consumed, on every error, on
/// cancellation, and for a stream when it ends or is dropped.
///
/// Metrics (dimensions bounded: the operation, the method, the outcome, the status code; never a URL):
/// `courier.client.request.duration` (timer), `courier.client.requests.in_flight` (meter),
/// `courier.client.errors` (counter, by ``APIError/Kind``), `courier.client.retries` and
/// `courier.client.redirects` (counters), `courier.client.request.body.size` and
/// `courier.client.response.body.size` (recorders, bytes).
final class CallObserver: Sendable {
    private struct State {
        var status: HTTPResponse.Status?
        var attempts = 0
        var redirects = 0
        var transportCalls = 0
        var finished = false
    }

    let operation: String
    let method: String
    private let metrics: (any MetricsFactory)?
    private let tracer: (any Tracer)?
    private let span: (any Span)?
    /// Where the call's first request goes, when traced.
    private let address: Address?
    private let started: ContinuousClock.Instant
    private let state = Mutex(State())

    /// Starts observing a call, or returns `nil` when neither a metrics backend nor a tracer is bootstrapped.
    static func start(route: some Route, request: HTTPRequest, client: APIClient) -> CallObserver? {
        guard client.pipeline.settings.reportsMetricsAndTraces else { return nil }
        // Metatype comparisons, not casts: a dynamic cast costs a thousand instructions, these a few.
        let factory = MetricsSystem.factory
        let metrics: (any MetricsFactory)? = type(of: factory) == NOOPMetricsHandler.self ? nil : factory
        // The instrument first: comparing it with the no-op one is much cheaper than looking for a tracer.
        let tracer: (any Tracer)?
        if type(of: InstrumentationSystem.instrument) == NoOpInstrument.self {
            tracer = nil
        } else {
            let found = InstrumentationSystem.tracer
            tracer = found is NoOpTracer ? nil : found
        }
        guard metrics != nil || tracer != nil else { return nil }
        return CallObserver(route: route, request: request, client: client, metrics: metrics, tracer: tracer)
    }

    private init(
        route: some Route, request: HTTPRequest, client: APIClient, metrics: (any MetricsFactory)?,
        tracer: (any Tracer)?
    ) {
        let operation = Self.operation(of: route)
        // OpenTelemetry: a method outside the HTTP specifications is `_OTHER` (and `http.request.method_original`),
        // which also keeps the metrics' method dimension bounded.
        let original = request.method.rawValue
        let method = Self.conventional(original)
        self.operation = operation
        self.method = method
        self.metrics = metrics
        self.tracer = tracer
        started = .now
        if let tracer {
            let template = Self.template(of: route)
            let span = tracer.startSpan(
                template.map { "\(Self.spanName(method)) \($0)" } ?? Self.spanName(method),
                context: InstrumentationContext.current ?? .topLevel,
                ofKind: .client)
            let url = client.fullURL(of: request)
            let address = Address(url, redaction: client.pipeline.settings.redaction)
            // Built in one dictionary of the right size, then set once: a span's attribute subscript boxes
            // each value and the dictionary grew three times.
            var attributes = Self.requestAttributes(method: method, original: original, address: address, extra: 3)
            if let template { attributes["url.template"] = .string(template) }
            attributes["courier.operation"] = .string(operation)
            // Merged: a tracer may have set attributes of its own when it started the span (a sampler's).
            span.updateAttributes { Self.add(attributes, to: &$0) }
            self.span = span
            self.address = address
        } else {
            span = nil
            address = nil
        }
        if let metrics {
            Meter(label: "courier.client.requests.in_flight", dimensions: [("operation", operation)], factory: metrics)
                .increment()
        }
    }

    /// The method as OpenTelemetry's HTTP conventions write it: one they name (RFC 9110's, PATCH and QUERY)
    /// as it is, any other as `_OTHER`.
    private static func conventional(_ method: String) -> String {
        switch method {
        case "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "QUERY", "CONNECT", "TRACE": method
        default: "_OTHER"
        }
    }

    /// A span's name for `method` as ``conventional(_:)`` wrote it: `HTTP` for `_OTHER`.
    private static func spanName(_ method: String) -> String {
        method == "_OTHER" ? "HTTP" : method
    }

    /// Where a request goes, as span attributes: `url.full` (redacted, as OpenTelemetry spells it:
    /// `REDACTED:REDACTED@` for credentials, `REDACTED` for a secret query value), `server.address` and
    /// `server.port`. Made once per call, and again only for a request to another URL (a redirect hop).
    struct Address {
        /// The URL as given, to tell whether a request goes to the same one.
        let url: String
        let full: String
        let host: String?
        let port: Int?

        init(_ url: String, redaction: Redaction) {
            self.url = url
            var full = redaction.redact(url: url)
            if full.utf8.contains(UInt8(ascii: "<")) {
                full = full.replacing("://\(Redaction.placeholder)@", with: "://REDACTED:REDACTED@")
                    .replacing(Redaction.placeholder, with: "REDACTED")
            }
            self.full = full
            // By byte rather than through `URL`, whose parse cost more than the rest of the span together.
            guard let (schemeEnd, whole) = url.utf8.schemeAndAuthority() else {
                (host, port) = (nil, nil)
                return
            }
            let scheme = url[..<schemeEnd].lowercased()
            var authority = whole
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
                authority = authority[authority.index(after: at)...]
            }
            // `[::1]:8080`: the port follows the bracket; `host:8080`: the last colon.
            let portColon =
                authority.first == UInt8(ascii: "[")
                ? authority.firstIndex(of: UInt8(ascii: "]")).flatMap { end in
                    let next = authority.index(after: end)
                    return next < authority.endIndex && authority[next] == UInt8(ascii: ":") ? next : nil
                }
                : authority.lastIndex(of: UInt8(ascii: ":"))
            let hostBytes = portColon.map { authority[..<$0] } ?? authority
            var hostText = String(decoding: hostBytes, as: UTF8.self)
            if hostText.hasPrefix("["), hostText.hasSuffix("]") { hostText = String(hostText.dropFirst().dropLast()) }
            host = hostText.isEmpty ? nil : hostText
            port =
                portColon.flatMap { Int(String(decoding: authority[authority.index(after: $0)...], as: UTF8.self)) }
                ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        }
    }

    /// `attributes` added to a span's own: set whole when the tracer gave it none (one right-sized dictionary),
    /// else merged.
    private static func add(_ attributes: [String: SpanAttribute], to existing: inout SpanAttributes) {
        if existing.isEmpty {
            existing = SpanAttributes(attributes)
        } else {
            existing.merge(SpanAttributes(attributes))
        }
    }

    /// The attributes every span of a request has: method, original method when `_OTHER`, address; room for
    /// `extra` more.
    private static func requestAttributes(method: String, original: String, address: Address, extra: Int)
        -> [String: SpanAttribute]
    {
        var attributes = [String: SpanAttribute](minimumCapacity: 5 + extra)
        attributes["http.request.method"] = .string(method)
        if method != original { attributes["http.request.method_original"] = .string(original) }
        attributes["url.full"] = .string(address.full)
        if let host = address.host { attributes["server.address"] = .string(host) }
        if let port = address.port { attributes["server.port"] = .int64(Int64(port)) }
        return attributes
    }

    /// The template of the path `route` is named by (a page reached through a link keeps its first request's).
    static func template(of route: some Route) -> String? {
        (route as? any TemplatedOperation)?.pathTemplate ?? route.path.template
    }

    /// The operation as a bounded metric dimension: an ``APIRequest``'s default ID names its path template
    /// (`GET /users/{}`), never the values in the path.
    static func operation(of route: some Route) -> String {
        if let request = route as? any TemplatedOperation { return request.boundedOperationID }
        return route.operationID
    }

    /// Runs `send` for one request to the transport under a child span whose context is injected into
    /// `head`'s fields.
    func transportCall(
        _ head: HTTPRequest, url: String, redaction: Redaction, _ send: (HTTPRequest) async throws -> Arrival
    ) async throws -> Arrival {
        guard let tracer, let span else { return try await send(head) }
        let index = state.withLock { state in
            defer { state.transportCalls += 1 }
            return state.transportCalls
        }
        var head = head
        // This request's own method: a redirect (303) may have turned the call's POST into a GET.
        let original = head.method.rawValue
        let method = Self.conventional(original)
        let attempt = tracer.startSpan(Self.spanName(method), context: span.context, ofKind: .client)
        let address = self.address.flatMap { $0.url == url ? $0 : nil } ?? Address(url, redaction: redaction)
        var attributes = Self.requestAttributes(method: method, original: original, address: address, extra: 3)
        if index > 0 { attributes["http.request.resend_count"] = .int64(Int64(index)) }
        attempt.updateAttributes { Self.add(attributes, to: &$0) }
        // Through the instrument, so that every propagator it holds (W3C trace context, baggage, B3) writes.
        InstrumentationSystem.instrument.inject(attempt.context, into: &head.headerFields, using: HTTPFieldsInjector())
        do {
            let result = try await send(head)
            attempt.attributes["http.response.status_code"] = Int(result.response.status.code)
            if result.response.status.code >= 400 {
                attempt.attributes["error.type"] = String(result.response.status.code)
                attempt.setStatus(SpanStatus(code: .error))
            }
            attempt.end()
            return result
        } catch {
            attempt.attributes["error.type"] = Self.errorType(of: error)
            attempt.recordError(error)
            attempt.setStatus(SpanStatus(code: .error))
            attempt.end()
            throw error
        }
    }

    /// A request span's `error.type` for an error out of the transport: `timedOut` when a time limit cut it
    /// off or the transport gave up waiting, `cancelled`, else `transport` (or what else it was).
    static func errorType(of error: any Error) -> String {
        if TimeLimit.hasExpired { return APIError.Kind.timedOut.name }
        if let error = error as? APIError { return error.kind.name }
        if let failure = TransportFailure.classify(error) { return failure.kind.name }
        return Task.isCancelled ? APIError.Kind.cancelled.name : APIError.Kind.transport.name
    }

    /// Notes what the pipeline delivered: the final status, the attempts a retry middleware counted and the
    /// redirects followed.
    func delivered(status: HTTPResponse.Status, attempts: Int, redirects: Int, source: ResponseSource) {
        state.withLock { state in
            state.status = status
            state.attempts = attempts
            state.redirects = redirects
        }
        // Where the response came from: a cache hit has no request span under it, a shared one only under the
        // call that sent it.
        span?.updateAttributes { attributes in
            attributes["courier.cache_status"] =
                switch source.status {
                case .network: "network"
                case .cached: "cached"
                case .revalidated: "revalidated"
                }
            if source.shared != nil { attributes["courier.coalesced"] = true }
        }
    }

    /// Ends the call (only the first call counts): records its metrics and ends its span.
    func finish(_ error: APIError?, requestBytes: Int? = nil, responseBytes: Int? = nil) {
        let snapshot: State? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            if let error {
                if let status = error.status { state.status = status }
                state.attempts = max(state.attempts, error.attempts ?? 0)
                state.redirects = max(state.redirects, error.redirects.count)
            }
            return state
        }
        guard let snapshot else { return }
        let retries = max(snapshot.attempts - 1, 0)
        let outcome = error?.kind.name ?? "success"
        if let metrics {
            let operation = [("operation", operation)]
            Meter(label: "courier.client.requests.in_flight", dimensions: operation, factory: metrics).decrement()
            CoreMetrics.Timer(
                label: "courier.client.request.duration",
                dimensions: [
                    ("operation", self.operation), ("method", method), ("outcome", outcome),
                    ("status", snapshot.status.map { String($0.code) } ?? "none"),
                ], factory: metrics
            ).recordInterval(since: started)
            if let error {
                Counter(
                    label: "courier.client.errors", dimensions: operation + [("kind", error.kind.name)],
                    factory: metrics
                ).increment()
            }
            if retries > 0 {
                Counter(label: "courier.client.retries", dimensions: operation, factory: metrics).increment(by: retries)
            }
            if snapshot.redirects > 0 {
                Counter(label: "courier.client.redirects", dimensions: operation, factory: metrics)
                    .increment(by: snapshot.redirects)
            }
            if let requestBytes {
                Recorder(label: "courier.client.request.body.size", dimensions: operation, factory: metrics)
                    .record(requestBytes)
            }
            if let responseBytes {
                Recorder(label: "courier.client.response.body.size", dimensions: operation, factory: metrics)
                    .record(responseBytes)
            }
        }
        guard let span else { return }
        span.updateAttributes { attributes in
            if let status = snapshot.status { attributes["http.response.status_code"] = Int(status.code) }
            if retries > 0 { attributes["courier.retry_count"] = retries }
            if let error {
                // OpenTelemetry: the status code for an error status, else a low-cardinality name of the failure.
                let statusError = error.kind == .unacceptableStatus || error.kind == .apiError
                attributes["error.type"] = statusError ? (error.status.map { String($0.code) } ?? outcome) : outcome
            }
        }
        if let error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }

    /// Runs `operation` with the call's span as the task's current context, so spans that middleware starts
    /// nest under it.
    func bound<T>(_ operation: () async throws(APIError) -> T) async throws(APIError) -> T {
        guard let context = span?.context else { return try await operation() }
        let result: Result<T, APIError> = await InstrumentationContext.$current.withValue(context) {
            do throws(APIError) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A stream dropped before it ended ends its call here: the consumer left, which is no failure.
    deinit {
        finish(nil)
    }
}

extension HTTPBody {
    /// The length, when it is known in advance.
    var knownLength: Int? {
        if case .known(let length) = length { Int(length) } else { nil }
    }
}

extension CoreMetrics.Timer {
    /// Records the time since `start`.
    fileprivate func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - start).components
        recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }
}

/// Writes propagation fields (`traceparent`, `tracestate`, …) into a request's header fields.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        fields[name] = value
    }
}

/// A route whose default operation ID holds values from its path, and so has a bounded form for metrics.
protocol TemplatedOperation {
    var boundedOperationID: String { get }
    /// The template of the path it is named by.
    var pathTemplate: String? { get }
}
