import Synchronization

/// One server instance's form-login state: access tokens with their expiry, refresh tokens with the
/// lifetime their access tokens get, and the counters `GET /auth/stats` reports.
final class FormLoginStore: Sendable {
    /// What `GET /auth/stats` returns.
    struct Stats: Encodable, Sendable {
        var logins = 0
        var refreshes = 0
        var meRequests = 0
        var unauthorized = 0
        var brokenRefreshes = 0
        var always401 = 0
    }

    /// A freshly issued pair of tokens.
    struct Grant: Sendable {
        let token: String
        let refreshToken: String
        let lifetime: Double
    }

    /// What an access token turned out to be.
    enum TokenCheck {
        case valid, unknown, expired
    }

    private struct State {
        var accessExpiry: [String: ContinuousClock.Instant] = [:]
        var refreshLifetimes: [String: Double] = [:]
        var stats = Stats()
    }

    private let state = Mutex(State())

    /// Issues tokens after a successful login; `lifetime` is the access token's, in seconds.
    func logIn(lifetime: Double) -> Grant {
        let grant = Self.makeGrant(lifetime: lifetime)
        state.withLock { state in
            state.stats.logins += 1
            Self.store(grant, in: &state)
        }
        return grant
    }

    /// Trades a refresh token for new tokens; the old refresh token stops working. `lifetime` overrides
    /// the lifetime of the original login. Nil (counted as unauthorized) for an unknown refresh token.
    func refresh(_ refreshToken: String, lifetime: Double?) -> Grant? {
        state.withLock { state in
            guard let previous = state.refreshLifetimes.removeValue(forKey: refreshToken) else {
                state.stats.unauthorized += 1
                return nil
            }
            let grant = Self.makeGrant(lifetime: lifetime ?? previous)
            state.stats.refreshes += 1
            Self.store(grant, in: &state)
            return grant
        }
    }

    /// Checks the token of a `GET /me` (counted, and counted as unauthorized unless valid).
    func checkMe(_ token: String?) -> TokenCheck {
        let now = ContinuousClock.now
        return state.withLock { state in
            state.stats.meRequests += 1
            let check: TokenCheck =
                switch token.flatMap({ state.accessExpiry[$0] }) {
                case nil: .unknown
                case let expiry? where expiry <= now: .expired
                case .some: .valid
                }
            if check != .valid { state.stats.unauthorized += 1 }
            return check
        }
    }

    /// Makes `token` expired now, as if its lifetime had passed; `false` when no such token was issued.
    func expire(_ token: String) -> Bool {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard state.accessExpiry[token] != nil else { return false }
            state.accessExpiry[token] = now
            return true
        }
    }

    /// Applies `change` to the counters.
    func count(_ change: (inout Stats) -> Void) {
        state.withLock { change(&$0.stats) }
    }

    /// The counters so far.
    var stats: Stats {
        state.withLock { $0.stats }
    }

    /// Zeroes the counters (tokens stay valid).
    func resetStats() {
        state.withLock { $0.stats = Stats() }
    }

    private static func makeGrant(lifetime: Double) -> Grant {
        Grant(
            token: RandomToken.make(prefix: "at_"), refreshToken: RandomToken.make(prefix: "rt_"), lifetime: lifetime)
    }

    private static func store(_ grant: Grant, in state: inout State) {
        state.accessExpiry[grant.token] = ContinuousClock.now + .milliseconds(Int64(grant.lifetime * 1000))
        state.refreshLifetimes[grant.refreshToken] = grant.lifetime
    }
}
