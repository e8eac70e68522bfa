public import HTTPTypes

/// The parts of one HTTP request: method, path, query, headers and body, without a response type.
///
/// A router enum (one enum, a case per call) conforms to `Route` and is sent with
/// ``APIClient/send(_:as:)->_``; a single endpoint type usually conforms to ``Endpoint``, which adds the
/// response type. Every requirement but ``path`` has a default.
/// ```swift
/// enum Shortener: Route {
///     case shorten(longURL: String)
///     case lookup(shortURL: String)
///
///     var method: HTTPRequest.Method { if case .shorten = self { .post } else { .get } }
///     var path: RoutePath { "/url" }
///     var query: Query { if case .lookup(let url) = self { ["shortUrl": url] } else { [:] } }
///     var body: RequestBody { if case .shorten(let url) = self { .json(["longUrl": url]) } else { .empty } }
/// }
///
/// func shorten(_ longURL: String, with client: APIClient) async throws -> ShortURL {
///     try await client.send(Shortener.shorten(longURL: longURL), as: ShortURL.self)
/// }
/// ```
public protocol Route: Sendable {
    /// The method; `.get` by default.
    var method: HTTPRequest.Method { get }
    /// The path, relative to the client's base URL. Interpolated values are encoded as path segments.
    var path: RoutePath { get }
    /// Query items, in order, before the client's default query items; empty by default. May throw, for
    /// example when built with ``QueryEncoder``.
    var query: Query { get throws }
    /// Header fields, added over the client's default headers; empty by default.
    var headers: HTTPFields { get }
    /// The body; ``RequestBody/empty`` by default.
    var body: RequestBody { get throws }
    /// The statuses that count as success; `nil` (the default) uses the client's.
    var acceptableStatuses: AcceptableStatuses? { get }
    /// A time limit for the whole exchange; `nil` (the default) uses the client's.
    var timeout: Duration? { get }
    /// A time limit for each attempt to get a response head (a retry's included); `nil` (the default) uses
    /// the client's ``APIClient/Configuration/attemptTimeout``.
    var attemptTimeout: Duration? { get }
    /// How this request follows redirects; `nil` (the default) uses the client's
    /// ``APIClient/Configuration/redirectPolicy``.
    var redirectPolicy: RedirectPolicy? { get }
    /// How this request uses the client's ``HTTPCache``; `nil` (the default) uses the client's
    /// ``APIClient/Configuration/cacheMode``.
    var cacheMode: CacheMode? { get }
    /// Whether identical requests in flight share one exchange; `nil` (the default) uses the client's
    /// ``APIClient/Configuration/coalescesRequests``.
    var coalesces: Bool? { get }
    /// The API's error body for this request: an unacceptable response's body is decoded into it (with the
    /// endpoint's decoder) and kept in ``APIError/errorBody``. `nil` (the default) uses the client's
    /// ``APIClient/Configuration/errorBody``.
    var errorBody: (any (Decodable & Sendable).Type)? { get }
    /// A name for this kind of request, handed to middleware and transports; the type's name by default.
    var operationID: String { get }

    /// Adjusts the request Courier built before it goes to the middleware, for what the other requirements
    /// can't express. Throwing stops the request with ``APIError/Kind/rejected`` in phase
    /// ``APIError/Phase/preparing``. Does nothing by default.
    func prepare(_ request: inout HTTPRequest) throws
}

extension Route {
    /// `.get`.
    public var method: HTTPRequest.Method { .get }
    /// No query items.
    public var query: Query { Query() }
    /// No header fields.
    public var headers: HTTPFields { HTTPFields() }
    /// No body.
    public var body: RequestBody { .empty }
    /// The client's acceptable statuses.
    public var acceptableStatuses: AcceptableStatuses? { nil }
    /// The client's timeout.
    public var timeout: Duration? { nil }
    /// The client's attempt timeout.
    public var attemptTimeout: Duration? { nil }
    /// The client's redirect policy.
    public var redirectPolicy: RedirectPolicy? { nil }
    /// The client's cache mode.
    public var cacheMode: CacheMode? { nil }
    /// The client's choice.
    public var coalesces: Bool? { nil }
    /// The client's error-body type.
    public var errorBody: (any (Decodable & Sendable).Type)? { nil }
    /// The type's name.
    public var operationID: String { TypeNames.name(of: Self.self) }
    /// Leaves the request as built.
    public func prepare(_ request: inout HTTPRequest) throws {}
}
