import HTTPTypes

extension APIClient {
    /// Runs `operation` with a time limit: when the limit passes first, the operation is cancelled and the
    /// request fails with ``APIError/Kind/timedOut``. Only requests with a time limit pay for the timer task.
    func withTimeLimit<T: Sendable>(
        _ limit: Duration, request: HTTPRequest, _ operation: @escaping @Sendable () async throws(APIError) -> T
    ) async throws(APIError) -> T {
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await Task.sleep(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw TimeLimitExceeded()
                }
                return value
            }
        } catch let error as APIError {
            throw error
        } catch is TimeLimitExceeded {
            throw failureContext(for: request).error(
                .timedOut, phase: .sending, message: "no complete response within \(limit)")
        } catch {
            throw failureContext(for: request).error(.cancelled, phase: .sending, underlying: error)
        }
    }
}

private struct TimeLimitExceeded: Error {}
