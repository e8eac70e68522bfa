extension APIClient {
    /// Cancels the in-flight requests of `type` (async and completion-handler alike, sends, downloads and
    /// pages) that pass `filter`; they end with ``APIError/Kind/cancelled``. Requests of other types go on.
    /// Returns how many were cancelled.
    ///
    /// ```swift
    /// client.cancelAll(GetRepository.self)  // all of them
    /// client.cancelAll(GetRepository.self) { $0.owner == owner }  // some of them
    /// ```
    @discardableResult
    public func cancelAll<E: CancellableByType>(_ type: E.Type, where filter: (E) -> Bool = { _ in true }) -> Int {
        registry.cancelAll(type, where: filter)
    }
}
