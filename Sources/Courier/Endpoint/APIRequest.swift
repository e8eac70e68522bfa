public import Foundation
public import HTTPTypes

/// A one-off request described as a value, for calls that don't deserve their own type.
///
/// ```swift
/// let user = try await client.send(APIRequest<User>.get("/users/octocat"))
/// try await client.send(APIRequest<Void>.delete("/repos/me/old"))
/// let login = APIRequest<Token>.post("/auth/local", body: .form(["email": email, "password": password]))
/// let token = try await client.send(login)
/// ```
public struct APIRequest<Response: Sendable>: Endpoint {
    /// The method.
    public var method: HTTPRequest.Method
    /// The path, relative to the client's base URL.
    public var path: RoutePath
    /// Query items.
    public var query: Query
    /// Header fields.
    public var headers: HTTPFields
    /// The body.
    public var body: RequestBody
    /// Statuses that count as success; `nil` uses the client's.
    public var acceptableStatuses: AcceptableStatuses?
    /// A time limit; `nil` uses the client's.
    public var timeout: Duration?
    /// A time limit for each attempt to get a response head; `nil` uses the client's.
    public var attemptTimeout: Duration?
    /// How redirects are followed; `nil` uses the client's (see ``redirectPolicy(_:)``).
    public var redirectPolicy: RedirectPolicy?
    /// How it uses the client's cache; `nil` uses the client's (see ``cacheMode(_:)``).
    public var cacheMode: CacheMode?
    /// Whether identical requests in flight share one exchange; `nil` uses the client's (see
    /// ``coalesced(_:)``).
    public var coalesces: Bool?
    /// The API's error-body type; `nil` uses the client's.
    public var errorBody: (any (Decodable & Sendable).Type)?
    /// The decoder for success and error bodies; `nil` uses the client's.
    public var decoder: (any ResponseBodyDecoder)?
    /// The envelope of success and error bodies; `nil` uses the client's.
    public var envelope: (any ResponseEnvelope)?
    /// The operation name handed to middleware.
    public var operationID: String

    private let decodeBody: @Sendable (Data, ResponseContext) throws -> Response

    private init(
        _ method: HTTPRequest.Method, _ path: RoutePath, query: Query, headers: HTTPFields, body: RequestBody,
        decode: @escaping @Sendable (Data, ResponseContext) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.operationID = Self.defaultOperationID(method, path)
        self.decodeBody = decode
    }

    /// `GET /users/octocat`: the method and the encoded path.
    private static func defaultOperationID(_ method: HTTPRequest.Method, _ path: RoutePath) -> String {
        "\(method.rawValue) \(path.encoded)"
    }

    /// Decodes the body the way the request was created to.
    public func decode(_ body: Data, context: ResponseContext) throws -> Response {
        try decodeBody(body, context)
    }
}

extension APIRequest where Response: Decodable {
    /// A request whose success body decodes to `Response` (raw for `Data`, UTF-8 for `String`).
    public init(
        _ method: HTTPRequest.Method, _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:],
        body: RequestBody = .empty
    ) {
        self.init(method, path, query: query, headers: headers, body: body) { data, context in
            try ResponseDecoding.decode(Response.self, from: data, context: context)
        }
    }
}

extension APIRequest where Response == Void {
    /// A request whose success body is ignored.
    public init(
        _ method: HTTPRequest.Method, _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:],
        body: RequestBody = .empty
    ) {
        self.init(method, path, query: query, headers: headers, body: body) { _, _ in }
    }
}

extension APIRequest: TemplatedOperation {
    /// The operation ID, unless it is the default one, which names the path's values: then the method and the
    /// path's template (`GET /users/{}`), or the method alone when the path has no template.
    var boundedOperationID: String {
        guard operationID == Self.defaultOperationID(method, path) else { return operationID }
        return path.template.map { "\(method.rawValue) \($0)" } ?? method.rawValue
    }

    /// The path's template.
    var pathTemplate: String? { path.template }
}
