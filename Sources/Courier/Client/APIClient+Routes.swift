extension APIClient {
    /// Sends a ``Route`` (for example a case of a router enum) and decodes its body as `T`.
    ///
    /// `Data` gives the raw body and `String` the body as UTF-8. Only the route's request parts are used,
    /// with the client's decoder and envelope: to send an ``Endpoint`` with its own decoding, `decoder`,
    /// `envelope` or `inspect` hook, use ``send(_:)``.
    /// ```swift
    /// let short = try await client.send(Shortener.shorten(longURL: url), as: ShortURL.self)
    /// ```
    public func send<R: Route, T: Decodable & Sendable>(_ route: R, as type: T.Type) async throws(APIError) -> T {
        try await send(RouteEndpoint<R, T>(route: route))
    }

    /// Sends a ``Route`` and ignores the body of its successful response.
    public func send<R: Route>(_ route: R, as type: Void.Type) async throws(APIError) {
        try await send(RouteEndpoint<R, Void>(route: route))
    }

    /// Sends a ``Route`` and returns its value decoded as `T` with the response head and raw body.
    public func response<R: Route, T: Decodable & Sendable>(_ route: R, as type: T.Type) async throws(APIError)
        -> APIResponse<T>
    {
        try await response(RouteEndpoint<R, T>(route: route))
    }
}
