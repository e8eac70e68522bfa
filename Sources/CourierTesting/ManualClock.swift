import Synchronization

/// A clock that moves only when a test moves it, so that code which waits (retry backoff, `Retry-After`,
/// throttling, token expiry, time limits, idle timeouts, reconnection delays) can be tested without sleeping.
///
/// Give it to a client (`APIClient.Configuration.clock`) or to a stateful middleware's store, start the
/// work, wait until it sleeps, and advance the clock past its deadline:
/// ```swift
/// let clock = ManualClock()
/// let client = APIClient(baseURL: url, transport: mock, middlewares: [.retry()]) { $0.clock = clock }
/// let call = Task { try await client.send(GetUser(login: "octocat")) }
/// await clock.waitForSleepers()  // the retry waits for the 30 s Retry-After
/// clock.advance(by: .seconds(30))  // and goes on at once
/// let user = try await call.value
/// ```
/// A sleeper wakes when the clock reaches its deadline, or throws `CancellationError` when its task is
/// cancelled. The clock starts at zero.
public final class ManualClock: Clock, Sendable {
    /// A reading of a ``ManualClock``: the time it has been advanced by since it was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration

        /// An instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The offset, as `Duration` prints it.
        public var description: String { offset.description }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleepers that have an id but have not begun waiting yet.
        var arriving: Set<UInt64> = []
        /// Sleepers cancelled before they began waiting.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        /// Tests waiting for a number of sleepers, by id.
        var watchers: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state = Mutex(State())

    /// A clock at zero.
    public init() {}

    /// The time the clock shows.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: any.
    public var minimumResolution: Duration { .zero }

    /// How many sleepers are waiting now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline a sleeper waits for, if any sleeps: how long the code under test chose to wait.
    public var earliestDeadline: Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    /// Suspends until the clock reaches `deadline` (at once when it has), or throws `CancellationError` when the
    /// task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, watchers) = state.withLock {
                    state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    state.arriving.remove(id)
                    if state.cancelled.remove(id) != nil { return (.failure(CancellationError()), []) }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (nil, Self.satisfiedWatchers(&state))
                }
                for watcher in watchers { watcher.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state in
                let sleeper = state.sleepers.removeValue(forKey: id)
                // Not waiting yet: it finds out when it begins to (one that already woke needs nothing).
                if sleeper == nil, state.arriving.contains(id) { state.cancelled.insert(id) }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes, earliest deadline first, every sleeper it reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to `instant` (if it is later) and wakes every sleeper it reaches.
    public func advance(to instant: Instant) {
        advance(by: max(.zero, now.duration(to: instant)))
    }

    /// Returns once at least `count` sleepers are waiting: the code under test has reached its wait. Every
    /// sleeper on the clock counts, a client's time limit among them. Returns early when the calling task is
    /// cancelled (a test's time limit), so a wait that never comes fails the test instead of hanging it.
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.watchers[id] = (count, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Removes and returns the watchers whose count the sleepers now reach.
    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let satisfied = state.watchers.filter { $0.value.count <= count }
        for id in satisfied.keys { state.watchers[id] = nil }
        return satisfied.values.map(\.continuation)
    }
}
