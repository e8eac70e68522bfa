import Courier
import CourierDemoServer
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The refreshing token store against the demo server's form-login API, which expires tokens and counts
/// refreshes.
@Suite(.timeLimit(.minutes(1))) struct TokenRefreshTests {
    struct Grant: Decodable, Sendable {
        let token: String
        let refreshToken: String
        let expiresIn: Double
    }

    struct Me: Decodable, Sendable { let email: String }

    struct Stats: Decodable, Sendable {
        let refreshes: Int
        let brokenRefreshes: Int
        let always401: Int
    }

    /// Logs in for a token that lives `ttl` seconds (its expiry kept from the store, so only a 401 reveals it).
    func logIn(_ client: APIClient, ttl: Double) async throws -> Grant {
        let form: Query = [
            "email": DemoCredentials.loginEmail, "password": DemoCredentials.loginPassword,
        ]
        return try await client.send(
            APIRequest<Grant>.post("/auth/local", query: ["ttl": ttl], body: .form(form)))
    }

    func refresher(_ client: APIClient, path: RoutePath = "/auth/refresh", refreshToken: String) -> TokenStore.Refresh {
        let current = Mutex(refreshToken)
        return { _ in
            // Refreshed tokens live an hour, so replays on a loaded machine never meet a second expiry.
            let grant = try await client.send(
                APIRequest<Grant>.post(
                    path, query: ["ttl": 3600], body: .form(["refreshToken": current.withLock { $0 }])))
            current.withLock { $0 = grant.refreshToken }
            return AuthToken(value: grant.token, refreshToken: grant.refreshToken)
        }
    }

    @Test func fiftyConcurrentRequestsWithAnExpiredTokenShareOneRefresh() async throws {
        try await TestServers.withFreshTestServer { base in
            let plain = APIClient(baseURL: base)
            // A token that expires as it is issued (the server's clock), so the first use is a 401.
            let grant = try await logIn(plain, ttl: 0)
            let store = TokenStore(
                token: AuthToken(value: grant.token), refresh: refresher(plain, refreshToken: grant.refreshToken))
            let client = APIClient(baseURL: base, middlewares: [.bearerToken(store: store)])
            let emails = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<50 { group.addTask { try await client.send(APIRequest<Me>.get("/me")).email } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(emails.count == 50)
            #expect(Set(emails) == [DemoCredentials.loginEmail])
            let stats = try await plain.send(APIRequest<Stats>.get("/auth/stats"))
            #expect(stats.refreshes == 1, "the server saw \(stats.refreshes) refreshes")
            #expect(await store.currentToken?.value != grant.token)
        }
    }

    @Test func failingRefreshFailsEveryoneClearlyWithABoundedNumberOfRefreshCalls() async throws {
        try await TestServers.withFreshTestServer { base in
            let plain = APIClient(baseURL: base)
            let grant = try await logIn(plain, ttl: 0)
            let store = TokenStore(
                token: AuthToken(value: grant.token),
                refresh: refresher(plain, path: "/auth/refresh-broken", refreshToken: grant.refreshToken))
            let client = APIClient(baseURL: base, middlewares: [.bearerToken(store: store)])
            let kinds = await withTaskGroup(of: APIError.Kind?.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        do throws(APIError) {
                            _ = try await client.send(APIRequest<Me>.get("/me"))
                            return nil
                        } catch { return error.kind }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(kinds.count == 50)
            #expect(
                kinds.allSatisfy { $0 == .authenticationFailed },
                "\(Set(kinds.map { "\($0?.description ?? "success")" }))")
            let stats = try await plain.send(APIRequest<Stats>.get("/auth/stats"))
            #expect(stats.brokenRefreshes == 1, "the server saw \(stats.brokenRefreshes) refresh calls")
            let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Me>.get("/me")) }
            #expect(error?.description.contains("token refresh failed") == true)
            #expect(error?.description.contains("GET http://127.0.0.1:") == true)
        }
    }

    @Test func aServerThatAlwaysAnswers401CausesNoLoop() async throws {
        try await TestServers.withFreshTestServer { base in
            let plain = APIClient(baseURL: base)
            let refreshes = Atomic<Int>(0)
            let store = TokenStore(token: AuthToken(value: "first")) { _ in
                let count = refreshes.add(1, ordering: .relaxed).newValue
                return AuthToken(value: "token-\(count)")
            }
            let client = APIClient(baseURL: base, middlewares: [.bearerToken(store: store)])
            let error = await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Void>.get("/auth/always-401"))
            }
            #expect(error?.status == .unauthorized)
            #expect(refreshes.load(ordering: .relaxed) == 1)
            let stats = try await plain.send(APIRequest<Stats>.get("/auth/stats"))
            #expect(stats.always401 == 2, "one request and one replay, no more")
        }
    }

    @Test func tokenNearExpiryIsRefreshedBeforeSending() async throws {
        let refreshes = Atomic<Int>(0)
        let clock = ManualClock()
        let store = TokenStore(
            token: AuthToken(value: "old", expiresAt: Date().addingTimeInterval(30)), clock: clock
        ) { _ in
            refreshes.add(1, ordering: .relaxed)
            return AuthToken(value: "new", expiresAt: Date().addingTimeInterval(3600))
        }
        #expect(try await store.validToken().value == "old", "early in its life the token is used")
        clock.advance(by: .seconds(20))  // now within the last half of its 30 s
        #expect(try await store.validToken().value == "new")
        #expect(try await store.validToken().value == "new")
        #expect(refreshes.load(ordering: .relaxed) == 1)
    }

    @Test func refreshStormsAreRefused() async throws {
        let store = TokenStore(token: nil, maxRefreshes: 2, per: .seconds(60)) { replacing in
            AuthToken(value: (replacing?.value ?? "") + "x")
        }
        let first = try await store.refresh(replacing: nil)
        let second = try await store.refresh(replacing: first)
        let error = await #expect(throws: APIError.self) { try await store.refresh(replacing: second) }
        #expect(error?.kind == .authenticationFailed)
        #expect(error?.description.contains("2 refreshes") == true)
    }

    @Test func tokenDescriptionHidesSecrets() {
        let token = AuthToken(value: "secret-access", refreshToken: "secret-refresh")
        #expect(!"\(token)".contains("secret"))
    }
}
