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
/// API answers `401`, by one request however many are waiting (single flight). A rotated refresh token is
/// saved before the request that waited for it goes on; when saving fails, that request fails with the error,
/// and the token, kept in memory, serves the next one. When the server refuses the refresh token
/// (`invalid_grant`: expired, revoked, reused), the tokens are removed and every waiting request fails with
/// ``APIError/Kind/signInRequired``: sign the user in again; there is no loop. A sign-in or sign-out while a
/// refresh is under way wins over it: the token that refresh obtains is revoked, not kept.
public final class OAuth2Session: Sendable {
    /// Refreshes and revokes the tokens.
    public var client: OAuth2Client { core.client }
    /// Where the tokens are kept.
    public var storage: any OAuth2TokenStorage { core.storage }
    /// The single flight in front of the refreshes, and what the middleware asks for a token.
    let tokens: TokenStore
    /// The tokens and how they are renewed; the token store's refresh holds it, not the session.
    private let core: Core

    /// A session.
    /// - Parameters:
    ///   - client: refreshes and revokes the tokens; its clock tells when they expire.
    ///   - storage: where the tokens are kept; in memory by default.
    ///   - expiryLeeway: how long before it expires a token is refreshed; a minute by default.
    public init(
        client: OAuth2Client, storage: any OAuth2TokenStorage = InMemoryOAuth2TokenStorage(),
        expiryLeeway: Duration = .seconds(60)
    ) {
        let core = Core(client: client, storage: storage, leeway: expiryLeeway)
        self.core = core
        tokens = TokenStore(expiryLeeway: expiryLeeway, clock: client.time.clock) { replacing in
            try await core.renew(replacing: replacing)
        }
    }

    /// The stored token, if someone is signed in; it may have expired.
    public func token() async throws(APIError) -> OAuth2Token? {
        try await core.current()
    }

    /// A token that is not about to expire: the stored one, or a refreshed one.
    public func validToken() async throws(APIError) -> OAuth2Token {
        do {
            let access = try await tokens.validToken()
            if let token = core.latest, token.accessToken == access.value { return token }
            return OAuth2Token(
                accessToken: access.value, expiresAt: access.expiresAt, refreshToken: access.refreshToken)
        } catch {
            throw error as? APIError ?? APIError.oauth2(error, context: "OAuth 2.0: no valid token")
        }
    }

    /// Keeps `token`, from a grant, as the signed-in user's: saved, and sent from the next request on.
    public func signIn(_ token: OAuth2Token) async throws(APIError) {
        core.install(token)
        await tokens.set(token.authToken)
        do {
            try await core.storage.save(token)
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 sign-in: the token could not be saved")
        }
    }

    /// Forgets the tokens, here and in the storage, and then revokes them at the server (RFC 7009) when
    /// `revoking` and the provider can. The tokens are gone locally even when revocation fails.
    public func signOut(revoking: Bool = true) async throws(APIError) {
        let token = try? await core.current()
        core.install(nil)
        await tokens.set(nil)
        do {
            try await core.storage.remove()
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 sign-out: the stored token could not be removed")
        }
        if revoking, let token, core.client.provider.revocationEndpoint != nil { try await core.client.revoke(token) }
    }

    /// The tokens, and what renews them.
    private final class Core: Sendable {
        let client: OAuth2Client
        let storage: any OAuth2TokenStorage
        let leeway: Duration
        private let state = Mutex(State())

        struct State {
            /// Counts sign-ins and sign-outs: a refresh that started in an earlier one keeps nothing.
            var generation = 0
            /// The token this process last loaded, saved or obtained: the storage's, unless saving failed.
            var latest: Latest = .unknown
        }

        enum Latest {
            case unknown
            case known(OAuth2Token?)
        }

        init(client: OAuth2Client, storage: any OAuth2TokenStorage, leeway: Duration) {
            self.client = client
            self.storage = storage
            self.leeway = leeway
        }

        /// The latest token, when known.
        var latest: OAuth2Token? { state.withLock { if case .known(let token) = $0.latest { token } else { nil } } }

        /// Makes `token` the signed-in user's (`nil`: signed out), ending any refresh under way.
        func install(_ token: OAuth2Token?) {
            state.withLock {
                $0.generation += 1
                $0.latest = .known(token)
            }
        }

        /// The latest token: loaded from the storage the first time.
        func current() async throws(APIError) -> OAuth2Token? {
            if case .known(let token) = state.withLock({ $0.latest }) { return token }
            let loaded: OAuth2Token?
            do {
                loaded = try await storage.load()
            } catch {
                throw APIError.oauth2(error, context: "OAuth 2.0: the token storage could not be read")
            }
            return state.withLock { state in
                if case .known(let token) = state.latest { return token }  // signed in or out meanwhile
                state.latest = .known(loaded)
                return loaded
            }
        }

        /// What the token store's refresh does: the latest token when it is newer than `replacing` and fresh
        /// (loaded, saved by a sign-in, or saved to the storage by another process), else a refreshed one.
        func renew(replacing: AuthToken?) async throws -> AuthToken {
            guard let token = try await current() else {
                throw signInRequired("no one is signed in (no token is stored)")
            }
            let generation = state.withLock { $0.generation }
            if token.accessToken != replacing?.value, !isExpiring(token) { return token.authToken }
            if let stored = try? await storage.load(), stored.accessToken != token.accessToken,
                stored.accessToken != replacing?.value, !isExpiring(stored),
                keep(stored, ifStill: generation)
            {
                return stored.authToken
            }
            guard token.refreshToken != nil else {
                if keep(nil, ifStill: generation) { try? await storage.remove() }
                throw signInRequired("the access token was refused or expired, and no refresh token came with it")
            }
            let renewed: OAuth2Token
            do {
                renewed = try await client.refresh(token)
            } catch {
                guard let refusal = error.errorBody(as: OAuth2ErrorResponse.self), refusal.error == "invalid_grant"
                else { throw error }
                if keep(nil, ifStill: generation) { try? await storage.remove() }
                throw signInRequired("the authorization server refused the refresh token: \(refusal)", error)
            }
            guard keep(renewed, ifStill: generation) else {
                // Signed in or out meanwhile: that decision stands, and this token must not outlive it.
                Task { [client] in try? await client.revoke(renewed) }
                guard let installed = latest else { throw signInRequired("signed out while the token was refreshed") }
                return installed.authToken
            }
            do {
                try await storage.save(renewed)
            } catch {
                // Kept in memory: the next refresh returns it without a request.
                throw APIError.oauth2(error, context: "OAuth 2.0: the refreshed token could not be saved")
            }
            return renewed.authToken
        }

        /// Makes `token` the latest unless a sign-in or sign-out came after `generation`; says whether it did.
        private func keep(_ token: OAuth2Token?, ifStill generation: Int) -> Bool {
            state.withLock { state in
                guard state.generation == generation else { return false }
                state.latest = .known(token)
                return true
            }
        }

        /// Whether `token` expires within the leeway, on the client's clock.
        private func isExpiring(_ token: OAuth2Token) -> Bool {
            guard let expiresAt = token.expiresAt else { return false }
            return expiresAt.timeIntervalSince(client.time.date) <= leeway.inSeconds
        }

        private func signInRequired(_ reason: String, _ underlying: (any Error)? = nil) -> APIError {
            APIError(.signInRequired, phase: .preparing, message: "OAuth 2.0: \(reason)", underlyingError: underlying)
        }
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
