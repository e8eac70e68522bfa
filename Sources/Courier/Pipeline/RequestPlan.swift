import HTTPTypes
import OpenAPIRuntime

/// What one call resolved once, at the top of the exchange: each of the endpoint's choices, else the client's.
/// Stages read the plan; none looks at the endpoint or the configuration for these again.
struct RequestPlan: Sendable {
    /// The name handed to middleware and transports (``Route/operationID``).
    let operationID: String
    /// The time limit for the whole call, if any.
    let timeout: Duration?
    /// The time limit for each attempt to get a response head, if any.
    let attemptTimeout: Duration?
    /// Whether the call is tracked for ``APIClient/cancelAll(_:where:)``.
    let isTracked: Bool
    /// The statuses that count as success.
    let acceptableStatuses: AcceptableStatuses
    /// How redirects are followed.
    let redirectPolicy: RedirectPolicy
    /// How the call uses the client's cache (``CacheMode/bypass`` for a stream).
    let cacheMode: CacheMode
    /// Whether identical requests in flight share this one's exchange.
    let coalesces: Bool
    /// The call's metrics and tracing, when on: a child span for each request sent.
    var observer: CallObserver? = nil

    /// The plan for `route`, sent with `body` through `pipeline`, tracked as `key` and consumed as `Consumer`
    /// consumes. The client's defaults are read field by field from the pipeline's settings, never copied whole.
    @inline(__always)
    init<R: Route, Key: Route, Consumer: ResponseConsumer>(
        _ route: R, body: HTTPBody?, trackedAs key: Key, consumer: Consumer.Type, pipeline: Pipeline
    ) {
        operationID = route.operationID
        timeout = route.timeout ?? pipeline.settings.limits.timeout
        attemptTimeout = route.attemptTimeout ?? pipeline.settings.limits.attemptTimeout
        isTracked = key is any CancellableByType
        acceptableStatuses = route.acceptableStatuses ?? pipeline.settings.responses.acceptableStatuses
        redirectPolicy = route.redirectPolicy ?? pipeline.settings.redirectPolicy
        // A stream is neither stored nor replayed.
        cacheMode = Consumer.isStream ? .bypass : route.cacheMode ?? pipeline.settings.state.cacheMode
        // Only a body-less GET or HEAD read whole can be shared.
        coalesces =
            (route.coalesces ?? pipeline.settings.state.coalescesRequests) && Consumer.isShareable && body == nil
    }
}
