import Synchronization

/// One server instance's envelope-API state: the access tokens issued by `POST /envelope/login` (each
/// valid for an hour) and a gauge of the `/envelope/articles*` requests in flight.
final class EnvelopeStore: Sendable {
    static let tokenLifetime: Duration = .seconds(3600)

    private let tokens = Mutex<[String: ContinuousClock.Instant]>([:])
    private let gauge = Mutex(ConcurrencyGauge())

    /// Issues a new access token.
    func issueToken() -> String {
        let token = RandomToken.make(prefix: "env_")
        let expiry = ContinuousClock.now + Self.tokenLifetime
        tokens.withLock { $0[token] = expiry }
        return token
    }

    /// Whether `token` was issued here and has not expired.
    func isValid(_ token: String?) -> Bool {
        guard let token else { return false }
        let now = ContinuousClock.now
        return tokens.withLock { $0[token].map { $0 > now } ?? false }
    }

    /// Runs `body` counted as an article request in flight.
    func measuring<T>(_ body: () async throws -> T) async rethrows -> T {
        let now = ContinuousClock.now
        _ = gauge.withLock { $0.enter(at: now) }
        defer { gauge.withLock { $0.leave() } }
        return try await body()
    }

    /// The gauge of article requests.
    var articleRequests: ConcurrencyGauge {
        gauge.withLock { $0 }
    }

    /// Forgets the article-request counts (tokens stay valid).
    func resetStats() {
        gauge.withLock { $0 = ConcurrencyGauge() }
    }
}
