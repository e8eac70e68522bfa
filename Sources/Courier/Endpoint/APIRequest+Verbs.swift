public import HTTPTypes

extension APIRequest where Response: Decodable {
    /// A `GET` request.
    public static func get(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:]) -> Self {
        Self(.get, path, query: query, headers: headers)
    }
    /// A `POST` request.
    public static func post(
        _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty
    )
        -> Self
    { Self(.post, path, query: query, headers: headers, body: body) }
    /// A `PUT` request.
    public static func put(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty)
        -> Self
    { Self(.put, path, query: query, headers: headers, body: body) }
    /// A `PATCH` request.
    public static func patch(
        _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty
    ) -> Self { Self(.patch, path, query: query, headers: headers, body: body) }
    /// A `DELETE` request.
    public static func delete(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:]) -> Self {
        Self(.delete, path, query: query, headers: headers)
    }
}

extension APIRequest where Response == Void {
    /// A `GET` request whose body is ignored.
    public static func get(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:]) -> Self {
        Self(.get, path, query: query, headers: headers)
    }
    /// A `POST` request whose response body is ignored.
    public static func post(
        _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty
    )
        -> Self
    { Self(.post, path, query: query, headers: headers, body: body) }
    /// A `PUT` request whose response body is ignored.
    public static func put(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty)
        -> Self
    { Self(.put, path, query: query, headers: headers, body: body) }
    /// A `PATCH` request whose response body is ignored.
    public static func patch(
        _ path: RoutePath, query: Query = [:], headers: HTTPFields = [:], body: RequestBody = .empty
    ) -> Self { Self(.patch, path, query: query, headers: headers, body: body) }
    /// A `DELETE` request whose response body is ignored.
    public static func delete(_ path: RoutePath, query: Query = [:], headers: HTTPFields = [:]) -> Self {
        Self(.delete, path, query: query, headers: headers)
    }
}
