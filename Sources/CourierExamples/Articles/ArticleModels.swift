public import Foundation

/// An article.
public struct Article: Decodable, Sendable, Equatable, Identifiable {
    /// Its id.
    public let id: Int
    /// Its title.
    public let title: String
    /// Its text.
    public let body: String
    /// When it was published.
    public let publishedAt: Date
}

/// A profile picture; the API answers `null` when there is none.
public struct Avatar: Decodable, Sendable, Equatable {
    /// Where the picture is.
    public let url: URL
}

/// A session from logging in.
struct ArticleSession: Decodable, Sendable {
    let accessToken: String
    let expiresIn: Double
}

/// Login credentials.
struct ArticleCredentials: Encodable, Sendable {
    let username: String
    let password: String
}
