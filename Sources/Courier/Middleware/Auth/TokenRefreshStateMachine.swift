import Foundation

/// A ``TokenStore``'s state and decisions: the token and when it was obtained, the one refresh under way and
/// the callers waiting for it, the last refresh that failed, and the refreshes counted against the limit.
///
/// Transitions say what to do (resume a caller, start the refresh) instead of doing it, so the lock around the
/// state never spans a resumption, and every transition is tested without tasks, a clock or a network. Times
/// are passed in: `now` a reading of the store's clock, `date` the wall-clock date by the same clock.
///
/// A refresh, once started, runs to its end even when every caller waiting for it has left: it may already
/// have used a single-use refresh token, and its result is the store's. Only the store going away cancels it.
struct TokenRefreshStateMachine<Waiter, Work> {
    /// How the store judges expiry and limits refreshes (see ``TokenStore/init(token:expiryLeeway:maxRefreshes:per:retryAfterFailure:clock:refresh:)``).
    struct Policy {
        /// How long before its expiry a token is refreshed (at most half its lifetime).
        var expiryLeeway: Duration
        /// How many refreshes one `window` may hold.
        var maxRefreshes: Int
        /// The window of `maxRefreshes`.
        var window: Duration
        /// How long a failed refresh is reported to callers holding the same token before one is tried again.
        var retryAfterFailure: Duration
    }

    fileprivate enum Phase {
        /// No refresh is under way, and none failed recently.
        case idle
        /// A refresh of `replacing` runs (`work` is `nil` until it is attached); `waiting` are its callers.
        case running(replacing: AuthToken?, work: Work?, waiting: [UInt64: Waiter])
        /// The last refresh, of `replacing`, failed at `at` with `error`.
        case failed(replacing: AuthToken?, error: any Error, at: Duration)
    }

    /// The token requests are sent with now.
    private(set) var token: AuthToken?
    /// When ``token`` was obtained, to judge how early "shortly before it expires" is.
    private var obtainedAt: Date
    private var phase = Phase.idle
    /// When the refreshes within the last window started.
    private var refreshTimes: [Duration] = []
    let policy: Policy

    init(token: AuthToken?, obtainedAt: Date, policy: Policy) {
        self.token = token
        self.obtainedAt = obtainedAt
        self.policy = policy
    }

    /// What to do with a caller that asked for a token.
    enum Action {
        /// Resume `Waiter` with a token or an error now.
        case resume(Waiter, Result<AuthToken, any Error>)
        /// Keep it suspended: the refresh under way will resume it.
        case suspend
        /// Keep it suspended, start a refresh of `replacing`, and ``attach(_:)`` it.
        case start(replacing: AuthToken?)
    }

    /// Caller `id` (suspended as `waiter`) wants the current token, or a refreshed one when it is about to
    /// expire.
    mutating func validToken(_ id: UInt64, as waiter: Waiter, now: Duration, date: Date) -> Action {
        if let token, !isExpiring(token, date: date) { return .resume(waiter, .success(token)) }
        return refresh(id, as: waiter, replacing: token, now: now, date: date)
    }

    /// Caller `id` wants a token newer than `stale`: the current one if someone already replaced `stale`, the
    /// outcome of the refresh under way if there is one, else that of a new refresh, unless a refresh of the
    /// same token failed within `retryAfterFailure` or the limit is reached.
    mutating func refresh(_ id: UInt64, as waiter: Waiter, replacing stale: AuthToken?, now: Duration, date: Date)
        -> Action
    {
        if let token, token != stale, !isExpiring(token, date: date) { return .resume(waiter, .success(token)) }
        switch phase {
        case .running(let replacing, let work, var waiting):
            waiting[id] = waiter
            phase = .running(replacing: replacing, work: work, waiting: waiting)
            return .suspend
        case .failed(let replacing, let error, let at) where replacing == stale && now - at < policy.retryAfterFailure:
            return .resume(waiter, .failure(error))
        case .idle, .failed:
            break
        }
        let window = policy.window
        refreshTimes.removeAll { now - $0 >= window }
        guard refreshTimes.count < policy.maxRefreshes else {
            let error = APIError(
                .authenticationFailed, phase: .sending,
                message:
                    "refused to refresh the token: \(policy.maxRefreshes) refreshes already within \(policy.window)")
            return .resume(waiter, .failure(error))
        }
        refreshTimes.append(now)
        phase = .running(replacing: stale, work: nil, waiting: [id: waiter])
        return .start(replacing: stale)
    }

    /// The refresh asked for by ``Action/start(replacing:)`` has started as `work`.
    mutating func attach(_ work: Work) {
        guard case .running(let replacing, nil, let waiting) = phase else { return }
        phase = .running(replacing: replacing, work: work, waiting: waiting)
    }

    /// Caller `id` stopped waiting (its task was cancelled): its waiter, to resume with a cancellation, if it
    /// was waiting. The refresh goes on.
    mutating func leave(_ id: UInt64) -> Waiter? {
        guard case .running(let replacing, let work, var waiting) = phase else { return nil }
        let waiter = waiting.removeValue(forKey: id)
        phase = .running(replacing: replacing, work: work, waiting: waiting)
        return waiter
    }

    /// The refresh ended: its token becomes the current one, or its failure is remembered for the token it
    /// was to replace. Returns the waiters to resume with `outcome`.
    mutating func finish(_ outcome: Result<AuthToken, any Error>, now: Duration, date: Date) -> [Waiter] {
        guard case .running(let replacing, _, let waiting) = phase else { return [] }
        switch outcome {
        case .success(let fresh):
            token = fresh
            obtainedAt = date
            phase = .idle
        case .failure(let error):
            phase = .failed(replacing: replacing, error: error, at: now)
        }
        return Array(waiting.values)
    }

    /// A token installed from outside (after a login): it is current, and any failed refresh is forgotten.
    /// A refresh under way still installs its token when it ends.
    mutating func set(_ token: AuthToken?, date: Date) {
        self.token = token
        obtainedAt = date
        if case .failed = phase { phase = .idle }
    }

    /// The refresh under way, to cancel when the store goes away.
    var runningWork: Work? {
        guard case .running(_, let work, _) = phase else { return nil }
        return work
    }

    /// Whether `token` is within the leeway of its expiry. The leeway is at most half the token's lifetime, so
    /// a token that lives less than twice the leeway is not refreshed the moment it arrives.
    private func isExpiring(_ token: AuthToken, date: Date) -> Bool {
        guard let expiresAt = token.expiresAt else { return false }
        let lifetime = token == self.token ? expiresAt.timeIntervalSince(obtainedAt) : .infinity
        return expiresAt.timeIntervalSince(date) <= min(policy.expiryLeeway.inSeconds, lifetime / 2)
    }
}

extension TokenRefreshStateMachine: Sendable where Waiter: Sendable, Work: Sendable {}
extension TokenRefreshStateMachine.Phase: Sendable where Waiter: Sendable, Work: Sendable {}
