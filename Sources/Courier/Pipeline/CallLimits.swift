import HTTPTypes

/// Phase 3 of a call: what bounds it from outside, paid for only by calls that have it.
extension APIClient {
    /// Runs `operation` in a child task recorded under `key`, so that ``cancelAll(_:where:)`` can reach it;
    /// cancelling the calling task still cancels it. Costs one task hop, paid only by ``CancellableByType``
    /// endpoints.
    func tracked<Key: Route, Value: Sendable>(
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
        } catch {
            throw interruption(error, of: request)
        }
    }

    /// `operation`, or ``APIError/Kind/timedOut`` when `limit` passes first (the operation is then cancelled).
    /// Only requests with a time limit pay for the timer task.
    func run<Value: Sendable>(
        within limit: Duration, request: HTTPRequest,
        _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        do {
            if let value = try await TimeLimit.run(limit, time: pipeline.time, operation) { return value }
        } catch {
            throw interruption(error, of: request)
        }
        throw failureContext(for: request).error(
            .timedOut, phase: .sending, message: "no complete response within \(limit)")
    }

    /// An error out of a child task of phase 3: the operation's own ``APIError``, or else the only other thing
    /// a task running it can throw, a `CancellationError`.
    private func interruption(_ error: any Error, of request: HTTPRequest) -> APIError {
        error as? APIError ?? failureContext(for: request).error(.cancelled, phase: .sending, underlying: error)
    }
}
