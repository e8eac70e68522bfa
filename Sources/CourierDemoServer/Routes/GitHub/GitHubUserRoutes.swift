import Hummingbird

/// A GitHub-style `GET /users/{login}`: the user as JSON, or `404` with GitHub's
/// `{"message": "Not Found", "documentation_url": …}` body.
enum GitHubUserRoutes {
    struct User: Encodable {
        let login: String
        let id: Int
    }

    struct NotFound: Encodable {
        let message = "Not Found"
        let documentation_url = "https://docs.github.com/rest"
    }

    static let users = ["octocat": User(login: "octocat", id: 583231), "courier": User(login: "courier", id: 1)]

    static func add(to router: Router<DemoContext>) {
        router.get("/users/{login}") { _, context in
            let login = context.parameters.get("login") ?? ""
            guard let user = users[login] else { return try DemoResponses.json(NotFound(), status: .notFound) }
            return try DemoResponses.json(user)
        }
    }
}
