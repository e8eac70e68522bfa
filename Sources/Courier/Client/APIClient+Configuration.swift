public import Dispatch
public import Foundation
public import HTTPTypes

extension APIClient {
    /// Everything about a client besides its base URL, transport and middleware. Set it in the
    /// initializer's closure: `APIClient(baseURL: url) { $0.defaultQuery["api_key"] = "…" }`.
    ///
    /// It is read once, when the client is made: changing a copy read back from ``APIClient/configuration``
    /// changes nothing for that client.
    ///
    /// ## Topics
    ///
    /// ### Encoding requests
    /// - ``defaultQuery``
    /// - ``defaultHeaders``
    /// - ``queryEncoding``
    /// - ``jsonEncoder``
    /// - ``allowedOrigins``
    ///
    /// ### Decoding responses
    /// - ``jsonDecoder``
    /// - ``bodyDecoder``
    /// - ``envelope``
    /// - ``acceptableStatuses``
    /// - ``errorBody``
    ///
    /// ### Limits and time
    /// - ``maxBodySize``
    /// - ``timeout``
    /// - ``attemptTimeout``
    /// - ``clock``
    ///
    /// ### Redirects
    /// - ``redirectPolicy``
    ///
    /// ### HTTP state
    /// - ``cache``
    /// - ``cacheMode``
    /// - ``cookieJar``
    /// - ``coalescesRequests``
    ///
    /// ### Observability
    /// - ``reportsMetricsAndTraces``
    ///
    /// ### Completion handlers
    /// - ``callbackQueue``
    ///
    /// ### Redaction
    /// - ``redaction``
    public struct Configuration: Sendable {
        // MARK: Encoding requests

        /// Query items added after every request's own (an API key, Flickr's `format=json`); a request's
        /// own item of the same name wins. Empty by default.
        public var defaultQuery: Query = [:]

        /// Header fields on every request; a request's own field of the same name wins. By default only
        /// `User-Agent: Courier/<version> (<OS> <major>.<minor>)` (``APIClient/Configuration/defaultUserAgent``:
        /// some APIs, GitHub's among them, refuse requests without one). Name your app instead with
        /// `$0.defaultHeaders[.userAgent] = "MyApp/1.4 (contact@example.com)"`, or remove Courier's with `= nil`
        /// (URLSession then adds its own).
        public var defaultHeaders: HTTPFields = [.userAgent: Configuration.defaultUserAgent]

        /// How lists and booleans are written in queries and form bodies.
        public var queryEncoding = QueryEncoding()

        /// The encoder for ``RequestBody/json(_:)`` bodies. Built once, used for every request.
        public var jsonEncoder = JSONEncoder()

        /// Origins besides the base URL's that requests may go to: absolute URLs (``RoutePath/url(_:)``) and
        /// next-page links. Empty by default, so a link or URL elsewhere is refused before it is sent. A listed
        /// origin gets the client's middleware and default headers, but not its default query items, nor the
        /// credentials of ``CredentialMiddleware`` and ``TokenRefreshMiddleware`` unless they name it.
        /// Redirects may go to any `http(s)` origin (see ``redirectPolicy``), without credentials.
        public var allowedOrigins: Set<Origin> = []

        // MARK: Decoding responses

        /// The decoder for success and error bodies, unless an endpoint sets its own. Set date strategies
        /// here: `$0.jsonDecoder.dateDecodingStrategy = .iso8601`.
        public var jsonDecoder = JSONDecoder()

        /// The decoder for success and error bodies of every endpoint that sets none, for an API that does
        /// not speak JSON (an XML decoder, say); `nil` (the default) uses ``jsonDecoder``.
        public var bodyDecoder: (any ResponseBodyDecoder)?

        /// The envelope bodies come in, unless an endpoint sets its own; `nil` (the default) means the body is
        /// the payload. A failure it reports in an error response's body is the API's error.
        /// `$0.envelope = .successFlag` for `{"success", "error", "response"}` APIs.
        public var envelope: (any ResponseEnvelope)?

        /// The statuses that count as success, unless an endpoint says otherwise; 200–299 by default.
        public var acceptableStatuses = AcceptableStatuses.successful

        /// The API's error body: decoded from unacceptable responses into ``APIError/errorBody``.
        /// `nil` (the default) keeps only a snippet of the body.
        public var errorBody: (any (Decodable & Sendable).Type)?

        // MARK: Limits and time

        /// The largest response body read into memory, in bytes; 10 MiB by default. A larger body fails with
        /// ``APIError/Kind/bodyTooLarge`` before it is read in full when its length is declared.
        public var maxBodySize = 10 * 1024 * 1024

        /// A time limit for each whole exchange (sending, waiting, reading the body), unless an endpoint
        /// sets its own. `nil` (the default) leaves time limits to the transport: ``HTTPClientTransport``
        /// allows a minute up to the response head, ``StreamingURLSessionTransport`` a minute without receiving
        /// anything.
        /// Setting one runs each request beside a timer, which costs a few microseconds.
        public var timeout: Duration?

        /// A time limit for each attempt to get a response head, unless an endpoint sets its own: every request
        /// the transport sends, a retry's included. An attempt past it fails as ``APIError/Kind/timedOut``, which
        /// ``RetryMiddleware`` retries like a dropped connection (``timeout`` bounds the whole call, retries and
        /// all, and is never retried). `nil` (the default) sets none. OkHttp's per-attempt timeouts against its
        /// `callTimeout`.
        public var attemptTimeout: Duration?

        /// The clock every wait and time reading of the client's calls uses: time limits, stream idle timeouts
        /// and reconnection delays, and the waits of ``RetryMiddleware`` and ``TimeoutMiddleware`` (through
        /// ``MiddlewareContext/clock``). `ContinuousClock` by default; a test passes a clock it moves by hand
        /// (`ManualClock` in CourierTesting) instead of sleeping. Stateful middleware that outlives a client
        /// takes its own (``TokenStore`` and `.throttle(perSecond:clock:)`).
        public var clock: any Clock<Duration> = ContinuousClock()

        // MARK: Redirects

        /// How redirects are followed, unless an endpoint sets its own: up to 10 hops, credentials only within
        /// an origin, never from `https` to `http` (see ``RedirectPolicy``).
        public var redirectPolicy = RedirectPolicy.default

        // MARK: HTTP state

        /// The HTTP cache responses are kept in and served from; `nil` (the default) caches nothing. Share
        /// one ``HTTPCache`` between clients to share what it holds.
        public var cache: HTTPCache?

        /// How requests use ``cache`` unless an endpoint says otherwise; ``CacheMode/useProtocol`` by default.
        public var cacheMode = CacheMode.useProtocol

        /// The cookies kept across requests; `nil` (the default) keeps none, and a `Cookie` field goes only
        /// when a request sets one. With a jar, every `Set-Cookie` is stored and matching cookies are sent,
        /// the same on every transport (see ``CookieJar``). Share one jar between clients to share cookies.
        public var cookieJar: CookieJar?

        /// Whether identical `GET` requests in flight share one exchange: identical as they go to the network
        /// (after middleware and the cookie jar), so the same URL and header fields, credentials included.
        /// The first starts it, its body is read once and decoded once per endpoint type, and every caller
        /// waits for it; cancelling one caller cancels the exchange only when no other waits. Off by default;
        /// an endpoint can say otherwise (``Route/coalesces``).
        public var coalescesRequests = false

        // MARK: Observability

        /// Whether calls report to swift-metrics and swift-distributed-tracing when the process (or the calling
        /// task) has a backend for them: a timer, counters and a span per call, a child span per request sent.
        /// On by default; with no backend bootstrapped the check costs about 1,600 instructions (0.26 µs) and
        /// no allocation per call (<doc:Observability>). Turn it off for a client whose calls must not be
        /// observed, such as one that exports the metrics or traces themselves.
        public var reportsMetricsAndTraces = true

        // MARK: Completion handlers

        /// Where completion handlers run. The main queue on Apple platforms; on Linux a serial queue of
        /// Courier's own, because a Linux program need not run its main queue.
        public var callbackQueue: DispatchQueue = Self.defaultCallbackQueue

        // MARK: Redaction

        /// Which query items and header fields are secret, for errors and logs.
        public var redaction = Redaction.default

        /// The former name of ``maxBodySize``.
        @available(*, deprecated, renamed: "maxBodySize")
        public var maximumBodySize: Int {
            get { maxBodySize }
            set { maxBodySize = newValue }
        }

        /// The default configuration.
        public init() {}

        /// `Courier/<version> (<OS> <major>.<minor>)`, the `User-Agent` of a client that names none.
        public static let defaultUserAgent: String = {
            let version = ProcessInfo.processInfo.operatingSystemVersion
            return "Courier/\(courierVersion) (\(operatingSystemName) \(version.majorVersion).\(version.minorVersion))"
        }()

        /// This release of Courier.
        static let courierVersion = "0.2.0"

        private static var operatingSystemName: String {
            #if os(macOS)
                "macOS"
            #elseif os(iOS)
                "iOS"
            #elseif os(tvOS)
                "tvOS"
            #elseif os(watchOS)
                "watchOS"
            #elseif os(visionOS)
                "visionOS"
            #elseif os(Linux)
                "Linux"
            #elseif os(Windows)
                "Windows"
            #else
                "unknown OS"
            #endif
        }

        #if canImport(Darwin)
            private static var defaultCallbackQueue: DispatchQueue { .main }
        #else
            private static let defaultCallbackQueue = DispatchQueue(label: "Courier.callbacks")
        #endif
    }
}
