public import Foundation

/// A GitHub user.
public struct GitHubUser: Decodable, Sendable, Equatable {
    /// The login.
    public let login: String
    /// The numeric id.
    public let id: Int
    /// The display name, if set.
    public let name: String?
    /// How many public repositories the user has.
    public let publicRepos: Int?
    /// When the account was created.
    public let createdAt: Date?

    enum CodingKeys: String, CodingKey {
        case login, id, name
        case publicRepos = "public_repos"
        case createdAt = "created_at"
    }
}

/// A repository in search results.
public struct GitHubRepository: Decodable, Sendable, Equatable {
    /// The numeric id.
    public let id: Int
    /// `owner/name`.
    public let fullName: String
    /// How many stars it has.
    public let stargazersCount: Int
    /// Its description, if any.
    public let description: String?

    enum CodingKeys: String, CodingKey {
        case id, description
        case fullName = "full_name"
        case stargazersCount = "stargazers_count"
    }
}

/// One page of repository search results.
public struct GitHubSearchPage: Decodable, Sendable {
    /// How many repositories match in all.
    public let totalCount: Int
    /// This page's repositories.
    public let items: [GitHubRepository]

    enum CodingKeys: String, CodingKey {
        case items
        case totalCount = "total_count"
    }
}

/// GitHub's error body: `{"message": "Not Found", "documentation_url": "…"}`.
public struct GitHubError: Decodable, Sendable, Error, CustomStringConvertible {
    /// The message.
    public let message: String
    /// Where GitHub documents it.
    public let documentationURL: String?

    enum CodingKeys: String, CodingKey {
        case message
        case documentationURL = "documentation_url"
    }

    /// The message.
    public var description: String { message }
}
