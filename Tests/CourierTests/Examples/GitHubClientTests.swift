import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct GitHubClientTests {
    @Test(arguments: ExampleBackend.active) func userWithRateLimitAndCreatedDate(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let (user, rateLimit) = try await GitHubClient(baseURL: base, transport: transport).user("octocat")
            #expect(user.login == "octocat")
            #expect(user.id == 583231)
            #expect(user.createdAt != nil)
            let limit = try #require(rateLimit)
            #expect(limit.limit == 60)
            #expect(limit.remaining == 59)
            let (_, authenticated) = try await GitHubClient(
                baseURL: base, token: Secret(DemoCredentials.githubToken), transport: transport
            )
            .user("octocat")
            #expect(authenticated?.limit == 5000)
        }
    }

    @Test(arguments: ExampleBackend.active) func notFoundIsGitHubsError(_ backend: ExampleBackend) async throws {
        try await backend.run { base, transport in
            let error = await #expect(throws: APIError.self) {
                try await GitHubClient(baseURL: base, transport: transport).user("no-such-user")
            }
            #expect(error?.status == .notFound)
            #expect(error?.errorBody(as: GitHubError.self)?.message == "Not Found")
            #expect(error?.errorBody(as: GitHubError.self)?.documentationURL != nil)
        }
    }

    @Test(arguments: ExampleBackend.active) func aBadTokenIsBadCredentialsAndNeverPrinted(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let token = "ghp_WRONG_TOKEN_123456"
            let error = await #expect(throws: APIError.self) {
                try await GitHubClient(baseURL: base, token: Secret(token), transport: transport).authenticatedUser()
            }
            #expect(error?.status == .unauthorized)
            #expect(error?.errorBody(as: GitHubError.self)?.message == "Bad credentials")
            #expect(error?.description.contains(token) == false)
            let me = try await GitHubClient(
                baseURL: base, token: Secret(DemoCredentials.githubToken), transport: transport
            )
            .authenticatedUser()
            #expect(me.login == "octocat")
        }
    }

    @Test(arguments: ExampleBackend.active) func searchFollowsLinkHeadersLazily(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let github = GitHubClient(baseURL: base, token: Secret(DemoCredentials.githubToken), transport: transport)
            var names: [String] = []
            for try await repository in github.searchRepositories("swift", perPage: 20) {
                names.append(repository.fullName)
                if names.count == 45 { break }
            }
            #expect(names.count == 45)
            #expect(Set(names).count == 45, "pages overlap")
            let all = try await github.searchRepositories("swift", perPage: 50).reduce(0) { count, _ in count + 1 }
            #expect(all == 100)
        }
    }
}

/// The example clients' production URLs are literals checked here, so building them never fails.
@Suite struct ExampleConstantTests {
    @Test func productionURLsAreTheAddressesTheyName() {
        #expect(GitHubClient.productionURL.absoluteString == "https://api.github.com")
        #expect(FlickrClient.productionURL.absoluteString == "https://api.flickr.com")
        #expect(URLShortener.productionURL.absoluteString == "https://www.googleapis.com/urlshortener/v1")
    }
}
