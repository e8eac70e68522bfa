extension APIClient {
    /// Cancels the in-flight requests of `type` (async and completion-handler alike, sends, downloads and
    /// pages) that pass `filter`; they end with ``APIError/Kind/cancelled``. Requests of other types go on.
    /// Returns how many were cancelled.
    ///
    /// ```swift
    /// client.cancelAll(GetUser.self)                           // every GetUser in flight
    /// client.cancelAll(GetUser.self) { $0.login == "octocat" }  // only some
    /// ```
    @discardableResult
    public func cancelAll<E: CancellableByType>(_ type: E.Type, where filter: (E) -> Bool = { _ in true }) -> Int {
        registry.cancelAll(type, where: filter)
    }
}
