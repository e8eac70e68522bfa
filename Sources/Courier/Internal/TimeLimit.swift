/// Races an operation against a timer.
enum TimeLimit {
    /// The earliest time limit the current task runs under, if any: an operation cancelled past it was cut
    /// off by the time limit, not by its caller (a request span then says `timedOut`, not `cancelled`).
    @TaskLocal static var deadline: ContinuousClock.Instant?

    /// Whether the current task is cancelled because a ``run(_:_:)`` time limit passed.
    static var hasExpired: Bool {
        guard Task.isCancelled, let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// The operation's result, or `nil` when `limit` passed first (the operation is then cancelled, and this
    /// returns once it has stopped). Errors the operation throws are rethrown.
    static func run<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T)
        async throws -> T?
    {
        let end = ContinuousClock.now + limit
        let deadline = Self.deadline.map { min($0, end) } ?? end
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await Self.$deadline.withValue(deadline) { try await operation() } }
            group.addTask {
                try await Task.sleep(until: end, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
