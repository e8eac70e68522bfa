/// The GitHub-style user that `fixtures/user.json` holds and nginx serves at `/users/octocat`.
public struct User: Codable, Sendable, Equatable {
    public let login: String
    public let id: Int
    public let avatarURL: String
    public let htmlURL: String
    public let type: String
    public let siteAdmin: Bool
    public let name: String?
    public let blog: String?
    public let location: String?
    public let publicRepos: Int
    public let followers: Int
    public let following: Int
    public let createdAt: String

    enum CodingKeys: String, CodingKey {
        case login, id, type, name, blog, location, followers, following
        case avatarURL = "avatar_url"
        case htmlURL = "html_url"
        case siteAdmin = "site_admin"
        case publicRepos = "public_repos"
        case createdAt = "created_at"
    }
}
