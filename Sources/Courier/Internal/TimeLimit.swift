import HTTPTypes

/// Races an operation against a timer.
enum TimeLimit {
    /// The operation's result, or `nil` when `limit` passed first (the operation is then cancelled, and this
    /// returns once it has stopped). Errors the operation throws are rethrown.
    static func run<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T)
        async throws -> T?
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}

extension APIClient {
    /// Runs `operation` with a time limit: when the limit passes first, the operation is cancelled and the
    /// request fails with ``APIError/Kind/timedOut``. Only requests with a time limit pay for the timer task.
    func withTimeLimit<T: Sendable>(
        _ limit: Duration, request: HTTPRequest, _ operation: @escaping @Sendable () async throws(APIError) -> T
    ) async throws(APIError) -> T {
        do {
            if let value = try await TimeLimit.run(limit, operation) { return value }
        } catch let error as APIError {
            throw error
        } catch {
            throw failureContext(for: request).error(.cancelled, phase: .sending, underlying: error)
        }
        throw failureContext(for: request).error(
            .timedOut, phase: .sending, message: "no complete response within \(limit)")
    }
}
