import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A client's request pipeline, assembled once when the client is made, and everything it was built from.
///
/// ``APIClient`` is a small struct over one of these, so copies of a client, and the async frames of its
/// requests, carry one reference instead of the configuration. Only the stages the configuration asks for
/// exist, in one fixed order; a request never decides which stages run.
///
/// One call, outermost first (`ARCHITECTURE.md` has the map):
/// 1. the exchange (`APIClient+Exchange.swift`): resolves the ``RequestPlan``, observes the call, tracks it
///    for ``APIClient/cancelAll(_:where:)`` and runs it within its time limit (`CallLimits.swift`);
/// 2. redirects (`RedirectStage.swift`): each hop below is sent again for a redirect that is followed;
/// 3. middleware (`MiddlewareStage.swift`), when the client has any;
/// 4. the wire head (``network(_:)``): the cookie jar's cookies (`CookieStage.swift`), one `Cookie` field,
///    `Accept-Encoding`;
/// 5. coalescing (`CoalescingStage.swift`), 6. the HTTP cache (`CacheStage.swift`), 7. storing `Set-Cookie`
///    (`CookieStage.swift`), each when configured;
/// 8. the transport (`TransportStage.swift`): the only call to it, under a request span when observed.
///
/// After the hops, content decoding (`ContentDecodingStage.swift`), status validation and the consumer.
final class Pipeline: Sendable {
    /// The URL every path is relative to, as given.
    let baseURL: URL
    /// The base URL without a trailing `/`, or why it can't be used.
    let base: Result<NormalizedBase, APIError>
    /// The transport, as given.
    let transport: any ClientTransport
    /// The middleware, outermost first, as given.
    let middlewares: [any ClientMiddleware]
    /// The configuration, as given: only for ``APIClient/configuration``; the pipeline reads ``settings``.
    let configuration: APIClient.Configuration
    /// The configuration grouped by concern, as every part of the pipeline reads it.
    let settings: PipelineSettings
    /// In-flight requests of ``CancellableByType`` endpoints.
    let registry = RequestRegistry()
    /// The configuration's clock: every wait and time reading of the client's calls.
    var time: TimeSource { settings.limits.time }

    /// Stage 3, when the client has middleware.
    let middleware: MiddlewareStage?
    /// The cookie jar's stage, when the client has a jar: it adds cookies to the wire head and stores them.
    let cookies: CookieStage?
    /// Stages 5 to 7, outermost first: coalescing, then the cache and the jar's storing when configured.
    let stages: [any PipelineStage]
    /// Stage 8.
    let last: TransportStage
    /// Whether a hop notes the heads it sends in a ``MiddlewareContext`` (for errors to hide what middleware and
    /// the cookie jar added): only when either exists.
    let recordsHeads: Bool

    init(
        baseURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware],
        configuration: APIClient.Configuration
    ) {
        self.baseURL = baseURL
        self.base = NormalizedBase.validate(baseURL)
        self.transport = transport
        self.middlewares = middlewares
        self.configuration = configuration
        let settings = PipelineSettings(configuration)
        self.settings = settings
        middleware = middlewares.isEmpty ? nil : MiddlewareStage(middlewares, redaction: settings.redaction)
        cookies = settings.state.cookieJar.map(CookieStage.init)
        // Coalescing is always stage 5 (an endpoint may ask for it from a client that doesn't); a request that
        // doesn't coalesce starts after it (``network(_:)``).
        var stages: [any PipelineStage] = [CoalescingStage(maxBodySize: settings.limits.maxBodySize)]
        if let cache = settings.state.cache {
            stages.append(CacheStage(cache: cache, credentialFields: settings.redaction.headerNames))
        }
        if let cookies { stages.append(cookies) }
        self.stages = stages
        last = TransportStage(transport, redaction: settings.redaction, time: settings.limits.time)
        recordsHeads = middleware != nil || cookies != nil
    }

    /// A new hop's ``MiddlewareContext``: the one place one is made.
    func makeContext() -> MiddlewareContext {
        MiddlewareContext(
            redaction: settings.redaction, baseOrigin: try? base.get().origin, time: time,
            cookieJar: settings.state.cookieJar)
    }

    /// Stages 3 to 8 for one hop.
    @inline(__always)
    func send(_ hop: consuming Hop) async throws -> Arrival {
        guard let middleware else { return try await network(hop) }
        return try await middleware.send(hop, pipeline: self)
    }

    /// Stages 4 to 8: `hop` as it goes to the network, after middleware. Inlined into its two callers, so that
    /// a request without middleware pays no async frame for it.
    @inline(__always)
    func network(_ hop: consuming Hop) async throws -> Arrival {
        cookies?.addCookies(to: &hop)
        hop.head.joinCookieFields()
        // A range applies to the encoded bytes, which can't be decoded from the middle: ranges go unencoded.
        if !hop.head.headerFields.has(.acceptEncoding) && !hop.head.headerFields.has(.range) {
            hop.head.headerFields.append(ContentCoding.acceptedField)
        }
        let start = hop.plan.coalesces ? 0 : 1
        guard let context = hop.context else { return try await next(hop, from: start) }
        // The heads that went out, so that errors hide the secrets middleware and the jar added; and whether
        // what failed was below the middleware (the transport) or a middleware.
        context.recordSent(hop.head)
        do {
            let arrival = try await next(hop, from: start)
            context.transportSucceeded()
            return arrival
        } catch {
            context.transportFailed()
            throw error
        }
    }

    /// Stages 5 to 8 from `index` on.
    @inline(__always)
    func next(_ hop: Hop, from index: Int) async throws -> Arrival {
        guard index < stages.count else { return try await last.send(hop) }
        return try await stages[index].send(hop, next: Next(pipeline: self, index: index + 1))
    }
}

/// One of stages 5 to 7: it passes a hop on to the next stage or answers it itself.
protocol PipelineStage: Sendable {
    /// Answers `hop`, through `next` when it goes on to the network.
    func send(_ hop: Hop, next: Next) async throws -> Arrival
}

/// The rest of the pipeline after a stage.
struct Next: Sendable {
    let pipeline: Pipeline
    let index: Int

    /// Sends `hop` through the stages after the current one.
    func callAsFunction(_ hop: Hop) async throws -> Arrival {
        try await pipeline.next(hop, from: index)
    }
}

/// One request on its way through stages 3 to 8: the head and body, where it goes, and what the call
/// resolved for it.
struct Hop: Sendable {
    var head: HTTPRequest
    var body: HTTPBody?
    var baseURL: URL
    /// The call's plan: operation, cache mode, coalescing, observer.
    let plan: RequestPlan
    /// Where the heads sent are noted, and where middleware reads and reports (see ``Pipeline/recordsHeads``).
    let context: MiddlewareContext?
    /// Whether this hop follows a redirect to another origin: credentials middleware adds to the request as
    /// Courier built it are removed before the network sees them.
    var crossesOrigin = false

    /// The full URL of the head, for the cache, coalescing, cookies and spans.
    var url: String { baseURL.textWithoutTrailingSlash + (head.path ?? "") }
}

/// What a hop brings back: the response head, its body (read once), and where it came from.
struct Arrival: Sendable {
    var response: HTTPResponse
    var body: ResponseBody?
    var source = ResponseSource(status: .network)
}

/// Where a response came from: the network or the cache, and whether identical requests shared it.
struct ResponseSource: Sendable {
    var status: CacheStatus
    var shared: SharedResponse? = nil
    /// The HTTP version the transport received it over, when the transport says (``HTTPClientTransport`` does).
    var httpProtocol: HTTPProtocol? = nil
}

extension HTTPRequest {
    /// Joins this request's `Cookie` fields into one, as RFC 6265 requires on HTTP/1.1 (`HTTPFields` splits a
    /// `Cookie` value set through its subscript into one field per cookie, as HTTP/2 allows).
    mutating func joinCookieFields() {
        guard headerFields.count(of: .cookie) > 1 else { return }
        let cookies = headerFields[fields: .cookie]
        headerFields[fields: .cookie] = [
            HTTPField(name: .cookie, value: cookies.map(\.value).joined(separator: "; "))
        ]
    }
}

/// A validated base URL without a trailing `/`: transports append request paths to it.
struct NormalizedBase: Sendable {
    let url: URL
    let text: String
    let origin: Origin

    /// `url` checked: an absolute `http(s)` URL without query or fragment.
    static func validate(_ url: URL) -> Result<NormalizedBase, APIError> {
        func invalid(_ reason: String) -> Result<NormalizedBase, APIError> {
            let shown = Redaction.default.redact(url: url.absoluteString)
            var error = APIError(.invalidRequest, phase: .building, message: "base URL \(shown) \(reason)")
            error.url = shown
            return .failure(error)
        }
        let origin: Origin
        switch Origin.validate(url) {
        case .success(let valid): origin = valid
        case .failure(let invalidURL): return invalid(invalidURL.reason)
        }
        guard url.query(percentEncoded: true) == nil, url.fragment(percentEncoded: true) == nil else {
            return invalid("must not have a query or fragment; use defaultQuery for query items")
        }
        let text = url.textWithoutTrailingSlash
        guard let trimmed = URL(string: text) else { return invalid("is not a valid URL") }
        return .success(NormalizedBase(url: trimmed, text: text, origin: origin))
    }
}
