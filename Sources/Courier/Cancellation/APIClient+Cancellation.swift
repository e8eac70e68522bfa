extension APIClient {
    /// Cancels the in-flight requests of `type` (async and completion-handler alike) that pass `filter`;
    /// they end with ``APIError/Kind/cancelled``. Requests of other types go on. Returns how many were
    /// cancelled.
    ///
    /// ```swift
    /// client.cancelAll(GetUser.self)                           // every GetUser in flight
    /// client.cancelAll(GetUser.self) { $0.login == "octocat" }  // only some
    /// ```
    @discardableResult
    public func cancelAll<E: CancellableByType>(_ type: E.Type, where filter: (E) -> Bool = { _ in true }) -> Int {
        registry.cancelAll(type, where: filter)
    }

    /// Runs the request in a child task recorded in the registry, so that ``cancelAll(_:where:)`` can
    /// reach it; cancelling the calling task still cancels it.
    func trackedResponse<E: Endpoint>(_ endpoint: E) async throws(APIError) -> APIResponse<E.Response> {
        let task = Task { () async throws -> APIResponse<E.Response> in try await untrackedResponse(endpoint) }
        let token = registry.add(endpoint) { task.cancel() }
        defer { registry.remove(E.self, token: token) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.cancelled, phase: .sending, underlyingError: error)
        }
    }
}
