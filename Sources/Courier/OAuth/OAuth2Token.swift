public import Foundation

/// What a token endpoint issued (RFC 6749 §5.1): an access token, and what came with it.
///
/// Every token is a secret: ``description``, `String(reflecting:)` and `dump` show only the type, scope and
/// expiry. It is `Codable` for an ``OAuth2TokenStorage``; keep what it encodes to as you keep a password.
public struct OAuth2Token: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The access token.
    public var accessToken: String
    /// Its type, as the server named it (`Bearer`).
    public var tokenType: String
    /// When it expires, from `expires_in` and the time it arrived; `nil` when the server did not say.
    public var expiresAt: Date?
    /// A refresh token, when the grant issues one.
    public var refreshToken: String?
    /// The scopes granted, when the server said (it may grant fewer than asked for).
    public var scope: [String]?
    /// The OpenID Connect ID token, when `openid` was asked for.
    public var idToken: String?

    /// A token.
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil,
        scope: [String]? = nil, idToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scope = scope
        self.idToken = idToken
    }

    /// The access token as the bearer-token middleware and ``TokenStore`` hold it.
    public var authToken: AuthToken {
        AuthToken(value: accessToken, expiresAt: expiresAt, refreshToken: refreshToken)
    }

    /// The type, scope and expiry; never a token.
    public var description: String {
        let scope = scope.map { "\"\($0.joined(separator: " "))\"" } ?? "unknown"
        return "OAuth2Token(\(tokenType), scope: \(scope), expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"), "
            + "refreshToken: \(refreshToken == nil ? "none" : Redaction.placeholder), "
            + "idToken: \(idToken == nil ? "none" : Redaction.placeholder))"
    }

    /// What `dump` and debuggers show: the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

/// A token endpoint's answer as it comes over the wire.
struct TokenResponse: Decodable, Sendable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Double?
    let refreshToken: String?
    let scope: String?
    let idToken: String?

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case scope
        case idToken = "id_token"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        // A number, as RFC 6749 says, or the same number as a string, as some servers send it.
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = try container.decodeIfPresent(String.self, forKey: .expiresIn).flatMap(Double.init)
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
    }

    /// The token, expiring `expires_in` seconds after `receivedAt`.
    func token(receivedAt: Date) -> OAuth2Token {
        OAuth2Token(
            accessToken: accessToken, tokenType: tokenType,
            expiresAt: expiresIn.map { receivedAt.addingTimeInterval($0) }, refreshToken: refreshToken,
            scope: scope.map { $0.split(separator: " ").map(String.init) }, idToken: idToken)
    }
}

/// An authorization server's error answer (RFC 6749 §5.2, RFC 7009, RFC 8628): ``APIError/errorBody`` of a
/// failed grant, refresh or revocation.
///
/// ```swift
/// do {
///     token = try await oauth.refresh(token)
/// } catch {
///     guard error.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant" else { throw error }
///     token = try await signIn()  // the refresh token is no longer valid
/// }
/// ```
public struct OAuth2ErrorResponse: Decodable, Sendable, Hashable, Error, CustomStringConvertible {
    /// The error code: `invalid_request`, `invalid_client`, `invalid_grant`, `unauthorized_client`,
    /// `unsupported_grant_type`, `invalid_scope`, `authorization_pending`, `slow_down`, `access_denied`,
    /// `expired_token`, or another the server defines.
    public let error: String
    /// The server's explanation, for a developer.
    public let errorDescription: String?
    /// A page about the error.
    public let errorURI: String?

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
        case errorURI = "error_uri"
    }

    /// The code, and the explanation when there is one.
    public var description: String {
        [error, errorDescription.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
    }
}
