import Hummingbird

/// GitHub's error body: `{"message": "…", "documentation_url": "…"}`, plus `errors` for `422`.
struct GitHubErrorBody: Encodable {
    /// One entry of a `422 Validation Failed` body.
    struct FieldError: Encodable {
        let resource: String
        let field: String
        let code: String
    }

    let message: String
    var errors: [FieldError]?
    let documentation_url: String

    /// The response with this body and `status`.
    func response(status: HTTPResponse.Status) throws -> Response {
        try DemoResponses.json(self, status: status)
    }

    /// `404`: an unknown user (the body a test depends on).
    static let notFound = GitHubErrorBody(message: "Not Found", documentation_url: "https://docs.github.com/rest")
    /// `401`: an endpoint that needs a token got none.
    static let requiresAuthentication = GitHubErrorBody(
        message: "Requires authentication",
        documentation_url: "https://docs.github.com/rest/users/users#get-the-authenticated-user")
    /// `401`: an `Authorization` header that is not the demo token.
    static let badCredentials = GitHubErrorBody(
        message: "Bad credentials", documentation_url: "https://docs.github.com/rest")
    /// `422`: a search without `q`.
    static let missingQuery = GitHubErrorBody(
        message: "Validation Failed", errors: [FieldError(resource: "Search", field: "q", code: "missing")],
        documentation_url: "https://docs.github.com/v3/search")

    /// `403`: the rate limit is used up; `client` is the caller's address (or user id when authenticated).
    static func rateLimitExceeded(for client: String, authenticated: Bool) -> GitHubErrorBody {
        let message =
            authenticated
            ? "API rate limit exceeded for user ID \(client)."
            : "API rate limit exceeded for \(client). (But here's the good news: Authenticated requests get a "
                + "higher rate limit. Check out the documentation for more details.)"
        return GitHubErrorBody(
            message: message,
            documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api")
    }
}
