/// Races an operation against a timer on a clock.
enum TimeLimit {
    /// A time limit: a reading of the clock it runs on.
    struct Deadline: Sendable {
        let time: TimeSource
        let at: Duration

        var hasPassed: Bool { time.now >= at }
    }

    /// The earliest time limit the current task runs under, if any: an operation cancelled past it was cut
    /// off by the time limit, not by its caller (a request span then says `timedOut`, not `cancelled`).
    @TaskLocal static var deadline: Deadline?

    /// Whether the current task is cancelled because a ``run(_:time:_:)`` time limit passed.
    static var hasExpired: Bool {
        guard Task.isCancelled, let deadline else { return false }
        return deadline.hasPassed
    }

    /// The operation's result, or `nil` when `limit` passed on `time`'s clock first (the operation is then
    /// cancelled, and this returns once it has stopped). Errors the operation throws are rethrown.
    static func run<T: Sendable>(
        _ limit: Duration, time: TimeSource = .continuous, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        let end = time.now + limit
        // An outer limit on the same clock that ends earlier stays the one that cuts the operation off.
        let outer = Self.deadline.flatMap { $0.time.isSame(as: time) && $0.at < end ? $0 : nil }
        let deadline = outer ?? Deadline(time: time, at: end)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await Self.$deadline.withValue(deadline) { try await operation() } }
            group.addTask {
                try await time.sleep(until: end)
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }
}
