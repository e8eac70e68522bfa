import Hummingbird

/// GitHub-style users (behind ``GitHubRateLimitMiddleware``, so every answer carries `X-RateLimit-*`):
///
/// - `GET /users/{login}` → `{"login": "octocat", "id": 583231, "name": "The Octocat", "public_repos": 8,
///   "created_at": "2011-01-25T18:44:36Z"}` for the users in ``GitHubUsers`` (login case-insensitive);
///   otherwise `404 {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}`.
/// - `GET /user` → the token's user (`octocat`) with `Authorization: Bearer <token>` or `token <token>`;
///   no header → `401 {"message": "Requires authentication", …}`. A wrong token gets `401 Bad credentials`
///   from the middleware on every GitHub-style route.
enum GitHubUserRoutes {
    static func add(to group: RouterGroup<DemoContext>) {
        group.get("/users/{login}") { _, context in
            guard let user = GitHubUsers.named(context.parameters.get("login") ?? "") else {
                return try GitHubErrorBody.notFound.response(status: .notFound)
            }
            return try DemoResponses.json(user)
        }
        group.get("/user") { request, _ in
            guard GitHubIdentity(request) == .authenticated else {
                return try GitHubErrorBody.requiresAuthentication.response(status: .unauthorized)
            }
            return try DemoResponses.json(GitHubUsers.octocat)
        }
    }
}
