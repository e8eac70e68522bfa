/// The users the GitHub-style API knows; the token ``DemoCredentials/githubToken`` belongs to `octocat`.
enum GitHubUsers {
    /// A user as `GET /users/{login}` and `GET /user` return it.
    struct User: Encodable {
        let login: String
        let id: Int
        let name: String
        let public_repos: Int
        let created_at: String
    }

    static let octocat = User(
        login: "octocat", id: 583231, name: "The Octocat", public_repos: 8, created_at: "2011-01-25T18:44:36Z")

    static let all: [User] = [
        octocat,
        User(login: "courier", id: 1_000_001, name: "Courier", public_repos: 3, created_at: "2024-03-14T09:26:53Z"),
        User(login: "swift-lang", id: 42_816_656, name: "Swift", public_repos: 94, created_at: "2018-10-02T17:04:21Z"),
        User(login: "ada", id: 1815, name: "Ada Lovelace", public_repos: 1, created_at: "2008-12-10T08:15:00Z"),
    ]

    /// The user called `login`, compared case-insensitively as GitHub does.
    static func named(_ login: String) -> User? {
        let wanted = login.lowercased()
        return all.first { $0.login == wanted }
    }
}
