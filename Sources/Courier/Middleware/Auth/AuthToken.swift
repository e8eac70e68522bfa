public import Foundation

/// An access token and what is known about it.
public struct AuthToken: Sendable, Hashable, CustomStringConvertible {
    /// The token itself, sent as `Authorization: Bearer <value>`.
    public var value: String
    /// When it stops working, if known; a ``TokenStore`` refreshes it shortly before.
    public var expiresAt: Date?
    /// A refresh token to obtain the next access token with, if the API issues one.
    public var refreshToken: String?

    /// Creates a token.
    public init(value: String, expiresAt: Date? = nil, refreshToken: String? = nil) {
        self.value = value
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
    }

    /// Never shows the secret values.
    public var description: String {
        "AuthToken(value: <redacted>, expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"))"
    }
}
