import Foundation
import Synchronization

/// A signed-in user's tokens, kept in an ``OAuth2TokenStorage`` and refreshed by an ``OAuth2Client``: what the
/// ``TokenRefreshMiddleware/oauth2(_:origins:)`` middleware sends.
///
/// ```swift
/// let session = OAuth2Session(client: oauth, storage: storage)
/// if try await session.token() == nil {
///     try await session.signIn(try await oauth.authorizationCode(scope: ["read"], userAgent: agent))
/// }
/// let api = APIClient(baseURL: apiURL, middlewares: [.oauth2(session)])
/// ```
/// A token is refreshed shortly before it expires (`expiryLeeway`, for clocks that disagree) and once when the
/// API answers `401`, by one request however many are waiting (single flight). A rotated refresh token
/// replaces the old one in the storage before any request uses the new access token. When the server refuses
/// the refresh token (`invalid_grant`: expired, revoked, reused), the tokens are removed and every waiting
/// request fails with ``APIError/Kind/signInRequired``: sign the user in again; there is no loop.
public final class OAuth2Session: Sendable {
    /// Refreshes and revokes the tokens.
    public let client: OAuth2Client
    /// Where the tokens are kept.
    public let storage: any OAuth2TokenStorage
    /// The single flight in front of the refreshes, and what the middleware asks for a token.
    let tokens: TokenStore
    /// The token this process last loaded, saved or obtained: the storage's, unless saving failed.
    private let latest = Mutex<Latest>(.unknown)
    private let expiryLeeway: Duration

    private enum Latest {
        case unknown
        case known(OAuth2Token?)
    }

    /// A session.
    /// - Parameters:
    ///   - client: refreshes and revokes the tokens; its clock tells when they expire.
    ///   - storage: where the tokens are kept; in memory by default.
    ///   - expiryLeeway: how long before it expires a token is refreshed; a minute by default.
    public init(
        client: OAuth2Client, storage: any OAuth2TokenStorage = InMemoryOAuth2TokenStorage(),
        expiryLeeway: Duration = .seconds(60)
    ) {
        self.client = client
        self.storage = storage
        self.expiryLeeway = expiryLeeway
        let box = Box()
        tokens = TokenStore(expiryLeeway: expiryLeeway, clock: client.time.clock) { replacing in
            guard let session = box.session else { throw CancellationError() }
            return try await session.renew(replacing: replacing)
        }
        box.session = self
    }

    /// The stored token, if someone is signed in; it may have expired.
    public func token() async throws(APIError) -> OAuth2Token? {
        try await current()
    }

    /// A token that is not about to expire: the stored one, or a refreshed one.
    public func validToken() async throws(APIError) -> OAuth2Token {
        do {
            let access = try await tokens.validToken()
            if let token = latest.withLock({ if case .known(let token) = $0 { token } else { nil } }),
                token.accessToken == access.value
            {
                return token
            }
            return OAuth2Token(
                accessToken: access.value, expiresAt: access.expiresAt, refreshToken: access.refreshToken)
        } catch {
            throw error as? APIError ?? APIError.oauth2(error, context: "OAuth 2.0: no valid token")
        }
    }

    /// Keeps `token`, from a grant, as the signed-in user's: saved, and sent from the next request on.
    public func signIn(_ token: OAuth2Token) async throws(APIError) {
        latest.withLock { $0 = .known(token) }
        await tokens.set(token.authToken)
        do {
            try await storage.save(token)
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 sign-in: the token could not be saved")
        }
    }

    /// Forgets the tokens, here and in the storage, and then revokes them at the server (RFC 7009) when
    /// `revoking` and the provider can. The tokens are gone locally even when revocation fails.
    public func signOut(revoking: Bool = true) async throws(APIError) {
        let token = try? await current()
        latest.withLock { $0 = .known(nil) }
        await tokens.set(nil)
        do {
            try await storage.remove()
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 sign-out: the stored token could not be removed")
        }
        if revoking, let token, client.provider.revocationEndpoint != nil { try await client.revoke(token) }
    }

    /// The latest token: loaded from the storage the first time.
    private func current() async throws(APIError) -> OAuth2Token? {
        if case .known(let token) = latest.withLock({ $0 }) { return token }
        let loaded: OAuth2Token?
        do {
            loaded = try await storage.load()
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0: the token storage could not be read")
        }
        return latest.withLock { latest in
            if case .known(let token) = latest { return token }  // signed in or out meanwhile
            latest = .known(loaded)
            return loaded
        }
    }

    /// What the token store's refresh does: the latest token when it is newer than `replacing` and fresh
    /// (loaded from the storage, or saved by a sign-in), else a refreshed one.
    private func renew(replacing: AuthToken?) async throws -> AuthToken {
        guard let token = try await current() else {
            throw signInRequired("no one is signed in (no token is stored)")
        }
        if token.accessToken != replacing?.value, !isExpiring(token) { return token.authToken }
        guard token.refreshToken != nil else {
            try? await forget()
            throw signInRequired("the access token expired, and no refresh token came with it")
        }
        let renewed: OAuth2Token
        do {
            renewed = try await client.refresh(token)
        } catch {
            guard let refusal = error.errorBody(as: OAuth2ErrorResponse.self), refusal.error == "invalid_grant" else {
                throw error
            }
            try? await forget()
            throw signInRequired("the authorization server refused the refresh token: \(refusal)", error)
        }
        latest.withLock { $0 = .known(renewed) }
        do {
            try await storage.save(renewed)
        } catch {
            // Kept in memory: the next refresh returns it without a request.
            throw APIError.oauth2(error, context: "OAuth 2.0: the refreshed token could not be saved")
        }
        return renewed.authToken
    }

    /// Removes the tokens a refusal made worthless.
    private func forget() async throws {
        latest.withLock { $0 = .known(nil) }
        try await storage.remove()
    }

    /// Whether `token` expires within the leeway, on the client's clock.
    private func isExpiring(_ token: OAuth2Token) -> Bool {
        guard let expiresAt = token.expiresAt else { return false }
        return expiresAt.timeIntervalSince(client.time.date) <= expiryLeeway.inSeconds
    }

    private func signInRequired(_ reason: String, _ underlying: (any Error)? = nil) -> APIError {
        APIError(.signInRequired, phase: .preparing, message: "OAuth 2.0: \(reason)", underlyingError: underlying)
    }

    /// The session, for the refresh closure the token store holds: weak, so the store does not keep it.
    private final class Box: Sendable {
        private let reference = Mutex<WeakSession>(WeakSession())
        var session: OAuth2Session? {
            get { reference.withLock { $0.session } }
            set { reference.withLock { $0.session = newValue } }
        }
    }

    private struct WeakSession {
        weak var session: OAuth2Session?
    }
}

extension ClientMiddleware where Self == TokenRefreshMiddleware {
    /// The signed-in user's OAuth 2.0 access token from `session`, refreshed before it expires and once on a
    /// `401` (not for `insufficient_scope`), sent to the base URL's origin and `origins` only.
    public static func oauth2(_ session: OAuth2Session, origins: Set<Origin> = []) -> Self {
        TokenRefreshMiddleware(store: session.tokens, origins: origins)
    }
}

extension APIError {
    /// `error` with `context` before its message when it is an `APIError`; otherwise an error of `kind` that
    /// says `context` and `error`.
    static func oauth2(_ error: any Error, context: String, kind: Kind = .authenticationFailed) -> APIError {
        guard var known = error as? APIError else {
            if error is CancellationError { return APIError(.cancelled, phase: .preparing, message: context) }
            return APIError(kind, phase: .preparing, message: "\(context): \(error)", underlyingError: error)
        }
        known.message = context + (known.message.map { ": \($0)" } ?? "")
        return known
    }
}
