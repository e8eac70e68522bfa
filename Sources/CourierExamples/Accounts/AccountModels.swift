/// The signed-in user.
public struct Account: Decodable, Sendable, Equatable {
    /// The user's id.
    public let id: Int
    /// The e-mail address.
    public let email: String
    /// The display name.
    public let name: String
}

/// What a login or refresh returns.
struct AccountGrant: Decodable, Sendable {
    let token: String
    let refreshToken: String
    let expiresIn: Double
}

/// The API's error body: `{"message": "Invalid email or password"}`.
public struct AccountError: Decodable, Sendable, Error, CustomStringConvertible {
    /// The message.
    public let message: String
    /// The message.
    public var description: String { message }
}
