public import Courier
public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// A client for a GitHub-style REST API: users, repository search with `Link` pagination, an optional
/// bearer token, GitHub's error body and its rate-limit fields.
///
/// ```swift
/// let github = GitHubClient(token: Secret(token))
/// let (user, rateLimit) = try await github.user("octocat")
/// for try await repository in github.searchRepositories("swift").prefix(50) { … }
/// ```
public struct GitHubClient: Sendable {
    /// api.github.com.
    public static let productionURL = URL.constant("https://api.github.com")

    /// The underlying client, for endpoints this type doesn't wrap.
    public let client: APIClient

    /// A client for `baseURL`, authenticated with `token` when given.
    public init(
        baseURL: URL, token: Secret? = nil, transport: any ClientTransport = DefaultTransport.make(),
        middlewares: [any ClientMiddleware] = []
    ) {
        var all = middlewares
        if let token { all.append(.bearerToken(token.value)) }
        client = APIClient(baseURL: baseURL, transport: transport, middlewares: all) {
            $0.errorBody = GitHubError.self
            $0.defaultHeaders[.accept] = "application/vnd.github+json"
            $0.jsonDecoder.dateDecodingStrategy = .iso8601
        }
    }

    /// The user `login`, with the rate limit the response reported.
    public func user(_ login: String) async throws(APIError) -> (user: GitHubUser, rateLimit: GitHubRateLimit?) {
        let response = try await client.response(GetGitHubUser(login: login))
        return (response.value, GitHubRateLimit(response.headerFields))
    }

    /// The user the token belongs to.
    public func authenticatedUser() async throws(APIError) -> GitHubUser {
        try await client.send(GetAuthenticatedUser())
    }

    /// Repositories matching `query`, fetched a page at a time as you iterate.
    public func searchRepositories(_ query: String, perPage: Int = 30, maxPages: Int = .max)
        -> ItemSequence<SearchRepositories>
    {
        client.items(SearchRepositories(q: query, perPage: perPage), maxPages: maxPages)
    }
}
