public import Courier

/// `GET /users/{login}`.
public struct GetGitHubUser: Endpoint {
    /// The user's profile.
    public typealias Response = GitHubUser
    /// The login; a `/` in it stays inside its path segment.
    public let login: String
    /// `/users/{login}`.
    public var path: RoutePath { "/users/\(login)" }
}

/// `GET /user`: the authenticated user (needs a token).
public struct GetAuthenticatedUser: Endpoint {
    /// The signed-in user's profile.
    public typealias Response = GitHubUser
    /// `/user`.
    public var path: RoutePath { "/user" }
}

// swift-format misses a doc comment that a DOCC region marker separates from its declaration.
// swift-format-ignore: AllPublicDeclarationsHaveDocumentation
/// `GET /search/repositories?q=&per_page=&page=`, paginated by `Link` headers.
// BEGIN DOCC: github search
public struct SearchRepositories: PaginatedEndpoint {
    public typealias Response = GitHubSearchPage
    /// The search query.
    public let q: String
    /// Results per page (GitHub allows up to 100).
    public var perPage = 30
    /// `/search/repositories`.
    public var path: RoutePath { "/search/repositories" }
    /// `q` and `per_page`; later pages come from the `Link` header.
    public var query: Query { ["q": q, "per_page": perPage] }
    /// The page's repositories.
    public func items(in page: GitHubSearchPage) -> [GitHubRepository] { page.items }
    /// The `rel="next"` link, if any.
    public func nextPage(after page: APIResponse<GitHubSearchPage>) -> NextPage<Self>? { .followingLink(in: page) }
}
// END DOCC: github search
