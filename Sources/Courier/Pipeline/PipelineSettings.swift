import Dispatch
import Foundation
import HTTPTypes

/// The client's ``APIClient/Configuration`` as the pipeline reads it: grouped by concern, built once when the
/// client is made, so that each part of the pipeline takes only the group it uses and an endpoint's choice is
/// combined with the client's default in one place.
struct PipelineSettings: Sendable {
    /// What every request starts from: default query items and header fields, how queries and bodies are
    /// encoded, and which origins besides the base URL's requests may go to.
    struct RequestDefaults: Sendable {
        let query: Query
        let headers: HTTPFields
        let queryEncoding: QueryEncoding
        let jsonEncoder: JSONEncoder
        let allowedOrigins: Set<Origin>
    }

    /// How responses are judged and decoded, unless an endpoint says otherwise.
    struct ResponseRules: Sendable {
        /// ``APIClient/Configuration/bodyDecoder``, else ``APIClient/Configuration/jsonDecoder``.
        let decoder: any ResponseBodyDecoder
        let envelope: (any ResponseEnvelope)?
        let errorBody: (any (Decodable & Sendable).Type)?
        let acceptableStatuses: AcceptableStatuses

        /// The endpoint's decoder, else the client's. Generic, so that a call boxes no endpoint.
        func decoder(for endpoint: some Endpoint) -> any ResponseBodyDecoder {
            endpoint.decoder ?? decoder
        }

        /// The endpoint's envelope, else the client's.
        func envelope(for endpoint: some Endpoint) -> (any ResponseEnvelope)? {
            endpoint.envelope ?? envelope
        }

        /// How `endpoint`'s success body is decoded after `response`.
        func context(for endpoint: some Endpoint, response: HTTPResponse) -> ResponseContext {
            ResponseContext(response: response, decoder: decoder(for: endpoint), envelope: envelope(for: endpoint))
        }
    }

    /// Limits and time: the largest body read into memory, the two time limits, and the clock every wait
    /// and time reading uses.
    struct Limits: Sendable {
        let maxBodySize: Int
        let timeout: Duration?
        let attemptTimeout: Duration?
        let time: TimeSource
    }

    /// HTTP state kept across requests: the cache and how requests use it, the cookie jar, and whether
    /// identical requests in flight share one exchange.
    struct HTTPState: Sendable {
        let cache: HTTPCache?
        let cacheMode: CacheMode
        let cookieJar: CookieJar?
        let coalescesRequests: Bool
    }

    let requests: RequestDefaults
    let responses: ResponseRules
    let limits: Limits
    /// How redirects are followed, unless an endpoint sets its own.
    let redirectPolicy: RedirectPolicy
    let state: HTTPState
    /// Whether calls report to swift-metrics and swift-distributed-tracing.
    let reportsMetricsAndTraces: Bool
    /// Where completion handlers run.
    let callbackQueue: DispatchQueue
    /// Which query items and header fields are secret, for errors and logs.
    let redaction: Redaction

    init(_ configuration: APIClient.Configuration) {
        requests = RequestDefaults(
            query: configuration.defaultQuery, headers: configuration.defaultHeaders,
            queryEncoding: configuration.queryEncoding, jsonEncoder: configuration.jsonEncoder,
            allowedOrigins: configuration.allowedOrigins)
        responses = ResponseRules(
            decoder: configuration.bodyDecoder ?? configuration.jsonDecoder, envelope: configuration.envelope,
            errorBody: configuration.errorBody, acceptableStatuses: configuration.acceptableStatuses)
        limits = Limits(
            maxBodySize: configuration.maxBodySize, timeout: configuration.timeout,
            attemptTimeout: configuration.attemptTimeout, time: TimeSource(configuration.clock))
        redirectPolicy = configuration.redirectPolicy
        state = HTTPState(
            cache: configuration.cache, cacheMode: configuration.cacheMode, cookieJar: configuration.cookieJar,
            coalescesRequests: configuration.coalescesRequests)
        reportsMetricsAndTraces = configuration.reportsMetricsAndTraces
        callbackQueue = configuration.callbackQueue
        redaction = configuration.redaction
    }
}
