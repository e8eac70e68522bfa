import Foundation

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
/// one holding that token, fails with ``APIError/Kind/authenticationFailed`` until ``set(_:)`` installs a
/// token or a later refresh succeeds. At most `maxRefreshes` refreshes happen per `window`, so a server
/// that rejects every token can't cause a refresh storm.
public actor TokenStore {
    /// Obtains a new token; receives the token being replaced (`nil` when there is none yet).
    public typealias Refresh = @Sendable (_ replacing: AuthToken?) async throws -> AuthToken

    private var token: AuthToken?
    private let refreshToken: Refresh
    private let expiryLeeway: Duration
    private let maxRefreshes: Int
    private let window: Duration
    private var inFlight: Task<AuthToken, any Error>?
    private var failure: (replacing: AuthToken?, error: any Error, at: Duration)?
    /// When the current token was obtained, to judge how early "shortly before it expires" is.
    private var obtainedAt: Date
    private let retryAfterFailure: Duration
    private var refreshTimes: [Duration] = []
    /// The store's clock: expiry, the failure memory and the refresh limit read it.
    private let time: TimeSource

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
        self.time = time
        obtainedAt = time.date
        self.token = token
        self.retryAfterFailure = retryAfterFailure
        self.expiryLeeway = expiryLeeway
        self.maxRefreshes = maxRefreshes
        self.window = window
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

    /// The token requests are sent with now.
    public var currentToken: AuthToken? { token }

    /// Installs a token (after a login, say) and forgets any failed refresh.
    public func set(_ token: AuthToken?) {
        self.token = token
        obtainedAt = time.date
        failure = nil
    }

    /// The current token if it is not about to expire, otherwise a refreshed one.
    public func validToken() async throws -> AuthToken {
        if let token, !isExpiring(token) { return token }
        return try await refresh(replacing: token)
    }

    /// A token newer than `stale`: the current one if someone already replaced `stale`, the result of the
    /// refresh under way if there is one, otherwise the result of a new refresh.
    public func refresh(replacing stale: AuthToken?) async throws -> AuthToken {
        if let token, token != stale, !isExpiring(token) { return token }
        if let inFlight { return try await inFlight.value }
        if let failure, failure.replacing == stale, time.now - failure.at < retryAfterFailure {
            throw failure.error
        }
        try checkRefreshLimit()
        // Everyone waiting on this task, not only its creator, gets the same outcome.
        let task = Task { [refreshToken] in
            do {
                return try await refreshToken(stale)
            } catch {
                throw APIError(
                    .authenticationFailed, phase: .sending, message: "token refresh failed: \(error)",
                    underlyingError: error)
            }
        }
        inFlight = task
        defer { inFlight = nil }
        do {
            let fresh = try await task.value
            token = fresh
            obtainedAt = time.date
            failure = nil
            return fresh
        } catch {
            failure = (stale, error, time.now)
            throw error
        }
    }

    /// Whether `token` is within the leeway of its expiry. The leeway is at most half the token's lifetime,
    /// so a token that lives less than twice the leeway is not refreshed the moment it arrives.
    private func isExpiring(_ token: AuthToken) -> Bool {
        guard let expiresAt = token.expiresAt else { return false }
        let configured = expiryLeeway.inSeconds
        let lifetime = token == self.token ? expiresAt.timeIntervalSince(obtainedAt) : .infinity
        return expiresAt.timeIntervalSince(time.date) <= min(configured, lifetime / 2)
    }

    private func checkRefreshLimit() throws {
        let now = time.now
        refreshTimes.removeAll { now - $0 >= window }
        guard refreshTimes.count < maxRefreshes else {
            throw APIError(
                .authenticationFailed, phase: .sending,
                message: "refused to refresh the token: \(maxRefreshes) refreshes already within \(window)")
        }
        refreshTimes.append(now)
    }
}
