import Foundation
import Synchronization

/// Holds the current access token and refreshes it: shortly before it expires, and when the server answers
/// `401` — **once**, however many requests failed together (single flight).
///
/// ```swift
/// let tokens = TokenStore(token: saved) { expired in
///     // Use a client WITHOUT the auth middleware, so the refresh never waits on itself.
///     let fresh = try await authClient.send(RefreshToken(refreshToken: expired?.refreshToken ?? ""))
///     return AuthToken(value: fresh.token, expiresAt: .now + fresh.expiresIn, refreshToken: fresh.refreshToken)
/// }
/// let client = APIClient(baseURL: url, middlewares: [.bearerToken(store: tokens)])
/// ```
/// A refresh that fails is not retried for the same token: every request waiting on it, and every later
/// one holding that token, fails with ``APIError/Kind/authenticationFailed`` (or, when the refresh threw
/// ``APIError/Kind/signInRequired``, with that error as it is) until ``set(_:)`` installs a token or a later
/// refresh succeeds. At most `maxRefreshes` refreshes happen per `window`, so a server
/// that rejects every token can't cause a refresh storm.
///
/// A refresh runs to its end even when every request waiting for it was cancelled (it may already have used
/// a single-use refresh token): give the `refresh` closure a time limit of its own (an endpoint `timeout`),
/// since until it ends, no other refresh starts. Only the store going away cancels it.
public actor TokenStore {
    // An actor since 0.1; its state is behind a lock (`State`), which cancellation handlers can take at once.

    /// Obtains a new token; receives the token being replaced (`nil` when there is none yet).
    public typealias Refresh = @Sendable (_ replacing: AuthToken?) async throws -> AuthToken

    private typealias Machine = TokenRefreshStateMachine<
        CheckedContinuation<AuthToken, any Error>, Task<Void, Never>
    >

    /// The state, behind a lock rather than the actor, so a cancelled caller leaves at once (a cancellation
    /// handler can't wait for the actor) and the refresh task can finish without holding the store.
    private final class State: Sendable {
        let machine: Mutex<Machine>
        let time: TimeSource
        let nextID = Atomic<UInt64>(0)

        init(_ machine: Machine, time: TimeSource) {
            self.machine = Mutex(machine)
            self.time = time
        }
    }

    private let state: State
    private let refreshToken: Refresh

    /// Creates a store.
    /// - Parameters:
    ///   - token: the token to start with, if any; without one the first request refreshes.
    ///   - expiryLeeway: how long before `expiresAt` a token is refreshed proactively; 30 s by default.
    ///   - maxRefreshes: how many refreshes `window` may hold; 5 by default.
    ///   - window: the window for `maxRefreshes`; one minute by default.
    ///   - retryAfterFailure: how long a failed refresh is remembered (and reported to every request holding
    ///     the same token) before one is tried again; 5 s by default.
    ///   - clock: what tells the time: `ContinuousClock` by default; a test clock in tests. A token's
    ///     `expiresAt` is compared with the date when the store was made, advanced by this clock.
    ///   - refresh: obtains a new token.
    public init(
        token: AuthToken? = nil, expiryLeeway: Duration = .seconds(30), maxRefreshes: Int = 5,
        per window: Duration = .seconds(60), retryAfterFailure: Duration = .seconds(5),
        clock: any Clock<Duration> = ContinuousClock(), refresh: @escaping Refresh
    ) {
        let time = TimeSource(clock)
        let policy = Machine.Policy(
            expiryLeeway: expiryLeeway, maxRefreshes: maxRefreshes, window: window,
            retryAfterFailure: retryAfterFailure)
        state = State(Machine(token: token, obtainedAt: time.date, policy: policy), time: time)
        self.refreshToken = refresh
    }

    /// The same store, with the limit under its former name.
    @available(*, deprecated, renamed: "init(token:expiryLeeway:maxRefreshes:per:retryAfterFailure:refresh:)")
    public init(
        token: AuthToken? = nil, expiryLeeway: Duration = .seconds(30), maximumRefreshes: Int,
        per window: Duration = .seconds(60), retryAfterFailure: Duration = .seconds(5), refresh: @escaping Refresh
    ) {
        self.init(
            token: token, expiryLeeway: expiryLeeway, maxRefreshes: maximumRefreshes, per: window,
            retryAfterFailure: retryAfterFailure, refresh: refresh)
    }

    deinit {
        // The refresh holds only the state, not the store: nobody can wait for it any more.
        state.machine.withLock { $0.runningWork }?.cancel()
    }

    /// The token requests are sent with now.
    public var currentToken: AuthToken? { state.machine.withLock { $0.token } }

    /// Installs a token (after a login, say) and forgets any failed refresh.
    public func set(_ token: AuthToken?) {
        let date = state.time.date
        state.machine.withLock { $0.set(token, date: date) }
    }

    /// The current token if it is not about to expire, otherwise a refreshed one.
    public func validToken() async throws -> AuthToken {
        try await obtain { machine, id, waiter, now, date in machine.validToken(id, as: waiter, now: now, date: date) }
    }

    /// A token newer than `stale`: the current one if someone already replaced `stale`, the result of the
    /// refresh under way if there is one, otherwise the result of a new refresh. A caller that is cancelled
    /// stops waiting at once; the refresh goes on, and its token is kept.
    public func refresh(replacing stale: AuthToken?) async throws -> AuthToken {
        try await obtain { machine, id, waiter, now, date in
            machine.refresh(id, as: waiter, replacing: stale, now: now, date: date)
        }
    }

    /// Asks the state machine for a token on behalf of a new caller, and does what it says.
    private func obtain(
        _ ask:
            @Sendable (inout Machine, UInt64, CheckedContinuation<AuthToken, any Error>, Duration, Date) ->
            Machine.Action
    ) async throws -> AuthToken {
        let state = self.state
        let id = state.nextID.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (now, date) = (state.time.now, state.time.date)
                let action = state.machine.withLock { machine -> Machine.Action in
                    if Task.isCancelled { return .resume(continuation, .failure(CancellationError())) }
                    return ask(&machine, id, continuation, now, date)
                }
                switch action {
                case .resume(let waiter, let result): waiter.resume(with: result)
                case .suspend: break
                case .start(let stale): start(replacing: stale, state: state)
                }
            }
        } onCancel: {
            state.machine.withLock { $0.leave(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Starts the refresh the machine asked for; it reports to the state, never to the store.
    private nonisolated func start(replacing stale: AuthToken?, state: State) {
        let task = Task { [refreshToken] in
            let outcome: Result<AuthToken, any Error>
            do {
                // Shared by every caller, so bound by none's time limit.
                outcome = .success(try await TimeLimit.$deadline.withValue(nil) { try await refreshToken(stale) })
            } catch {
                // "Sign in again" says what to do, and stays what it is; any other failure is the refresh's.
                if let error = error as? APIError, error.kind == .signInRequired {
                    outcome = .failure(error)
                } else {
                    outcome = .failure(
                        APIError(
                            .authenticationFailed, phase: .sending, message: "token refresh failed: \(error)",
                            underlyingError: error))
                }
            }
            let (now, date) = (state.time.now, state.time.date)
            let waiters = state.machine.withLock { $0.finish(outcome, now: now, date: date) }
            for waiter in waiters { waiter.resume(with: outcome) }
        }
        state.machine.withLock { $0.attach(task) }
    }
}
