import Courier
import CourierTesting
import Crypto
import Foundation
import HTTPTypes
import Testing

/// The `.oauth2` middleware and its session against django-oauth-toolkit: a refresh storm of 50 requests makes
/// one refresh at the server, a refused refresh makes every request say "sign in again", scope errors are not
/// refreshed, and signing out revokes.
@Suite(.enabled(if: OAuthCatalogue.available), .timeLimit(.minutes(2)))
struct OAuth2SessionServerTests {
    /// The protected resource; the middleware adds the token. `scope` asks the server to require one.
    struct Me: Endpoint {
        typealias Response = OAuth2ServerTests.Me
        var scope: String?
        var path: RoutePath { "/api/me" }
        var query: Query { scope.map { ["scope": $0] } ?? [:] }
    }

    /// A signed-in user's token for the confidential code client, and that client.
    static func signedIn() async throws -> (OAuthCatalogue, OAuth2Client, OAuth2Token) {
        let (catalogue, oauth, browser) = try await OAuth2AuthorizationCodeServerTests.signingIn(
            with: "code_confidential")
        let token = try await oauth.authorizationCode(
            scope: ["read"], userAgent: OAuth2LoopbackUserAgent { try await browser.open($0) })
        return (catalogue, oauth, token)
    }

    /// How many refresh requests presented `refreshToken`, by the server's count.
    static func refreshes(of refreshToken: String?, at catalogue: OAuthCatalogue) async throws -> Int {
        struct Count: Decodable, Sendable { let count: Int }
        let hash = SHA256.hash(data: Data((refreshToken ?? "").utf8)).map { String(format: "%02x", $0) }.joined()
        let request = APIRequest<Count>.get("/test/refreshes", query: ["token": hash])
        return try await APIClient(baseURL: catalogue.baseURL).send(request).count
    }

    /// `count` requests at once through `client`, each one's result.
    static func storm(_ client: APIClient, count: Int = 50) async -> [Result<OAuth2ServerTests.Me, APIError>] {
        await withTaskGroup(of: Result<OAuth2ServerTests.Me, APIError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(APIError) { return .success(try await client.send(Me())) } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func fiftyRequestsWithAnExpiredTokenMakeOneRefresh() async throws {
        let (catalogue, oauth, token) = try await Self.signedIn()
        var expired = token
        expired.expiresAt = Date(timeIntervalSinceNow: -10)
        let storage = InMemoryOAuth2TokenStorage(expired)
        let session = OAuth2Session(client: oauth, storage: storage)
        let api = APIClient(baseURL: catalogue.baseURL, middlewares: [.oauth2(session)])
        let results = await Self.storm(api)
        #expect(results.count == 50)
        for result in results { #expect(try result.get().user == catalogue.user.username) }
        #expect(try await Self.refreshes(of: token.refreshToken, at: catalogue) == 1)
        // The rotated token was saved, and is the one in use.
        let saved = try #require(storage.load())
        #expect(saved.refreshToken != token.refreshToken && saved.accessToken != token.accessToken)
        #expect(try await Self.refreshes(of: saved.refreshToken, at: catalogue) == 0)
        #expect(try await session.validToken() == saved)
    }

    @Test func fiftyRequestsRefusedWith401MakeOneRefresh() async throws {
        let (catalogue, oauth, token) = try await Self.signedIn()
        // Valid by its expiry, unknown at the server: every request gets 401 invalid_token. (Revoking the access
        // token at this server would revoke its refresh token too.)
        var unknown = token
        unknown.accessToken = "unknown-\(UUID().uuidString)"
        let session = OAuth2Session(client: oauth, storage: InMemoryOAuth2TokenStorage(unknown))
        let api = APIClient(baseURL: catalogue.baseURL, middlewares: [.oauth2(session)])
        let results = await Self.storm(api)
        for result in results { #expect(try result.get().user == catalogue.user.username) }
        #expect(try await Self.refreshes(of: token.refreshToken, at: catalogue) == 1)
    }

    @Test func aRefusedRefreshSignsOutAndEveryRequestSaysSignInAgain() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("code_confidential"))
        let refused = "unknown-\(UUID().uuidString)"
        let storage = InMemoryOAuth2TokenStorage(
            OAuth2Token(accessToken: "stale", expiresAt: Date(timeIntervalSinceNow: -10), refreshToken: refused))
        let clock = ManualClock()
        let session = OAuth2Session(client: OAuth2Client(provider: provider, clock: clock), storage: storage)
        let api = APIClient(baseURL: catalogue.baseURL, middlewares: [.oauth2(session)])
        let results = await Self.storm(api)
        for result in results {
            guard case .failure(let error) = result else {
                Issue.record("a request succeeded with a refused refresh token")
                continue
            }
            #expect(error.kind == .signInRequired, "\(error)")
            #expect(error.description.contains("refused the refresh token: invalid_grant"), "\(error)")
            #expect(error.description.contains("GET \(catalogue.base_url)/api/me"), "\(error)")
            #expect(!error.description.contains(refused))
        }
        #expect(try await Self.refreshes(of: refused, at: catalogue) == 1)
        #expect(storage.load() == nil, "the refused tokens are removed")
        // Later requests say the same, without asking the server again, also once the failure is no longer
        // remembered (5 s): nobody is signed in.
        clock.advance(by: .seconds(6))
        let later = await #expect(throws: APIError.self) { try await api.send(Me()) }
        #expect(later?.kind == .signInRequired)
        #expect(try await Self.refreshes(of: refused, at: catalogue) == 1)
    }

    @Test func aMissingScopeIsNotRefreshedAndTheErrorSaysWhy() async throws {
        let (catalogue, oauth, token) = try await Self.signedIn()
        let session = OAuth2Session(client: oauth, storage: InMemoryOAuth2TokenStorage(token))
        let api = APIClient(baseURL: catalogue.baseURL, middlewares: [.oauth2(session)])
        let error = await #expect(throws: APIError.self) { try await api.send(Me(scope: "write")) }
        #expect(error?.status == .forbidden)
        let challenge = try #require(error?.authenticationChallenges.first)
        #expect(challenge.scheme == "bearer" && challenge.error == "insufficient_scope")
        #expect(challenge.parameters["scope"] == "write")
        #expect(
            error?.description.contains("WWW-Authenticate: Bearer insufficient_scope") == true,
            "\(error?.description ?? "")")
        #expect(try await Self.refreshes(of: token.refreshToken, at: catalogue) == 0)
    }

    @Test func signingOutRevokesAndForgets() async throws {
        let (catalogue, oauth, token) = try await Self.signedIn()
        let storage = InMemoryOAuth2TokenStorage()
        let session = OAuth2Session(client: oauth, storage: storage)
        try await session.signIn(token)
        let api = APIClient(baseURL: catalogue.baseURL, middlewares: [.oauth2(session)])
        _ = try await api.send(Me())
        try await session.signOut()
        #expect(storage.load() == nil)
        let error = await #expect(throws: APIError.self) { try await api.send(Me()) }
        #expect(error?.kind == .signInRequired, "\(error?.description ?? "")")
        // And at the server, the tokens are gone.
        let refused = await #expect(throws: APIError.self) {
            try await APIClient(baseURL: catalogue.baseURL).send(OAuth2ServerTests.GetMe(token: token))
        }
        #expect(refused?.status == .unauthorized)
        #expect(refused?.description.contains("WWW-Authenticate: Bearer invalid_token") == true)
    }
}
