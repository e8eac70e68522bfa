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
