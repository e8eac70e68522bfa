import HTTPTypes

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

    /// Runs `operation` in a child task recorded in the registry under `key`, so that
    /// ``cancelAll(_:where:)`` can reach it; cancelling the calling task still cancels it.
    func tracked<Key: Endpoint, Value: Sendable>(
        as key: Key, request: HTTPRequest, _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let task = Task { () async throws -> Value in try await operation() }
        let token = registry.add(key) { task.cancel() }
        defer { registry.remove(Key.self, token: token) }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch let error as APIError {
            throw error
        } catch {
            throw failureContext(for: request).error(.cancelled, phase: .sending, underlying: error)
        }
    }
}
