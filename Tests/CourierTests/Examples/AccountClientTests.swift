import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct AccountClientTests {
    struct AuthStats: Decodable, Sendable { let refreshes: Int }

    @Test(arguments: ExampleBackend.active) func formLoginThenMeThenRefreshOnExpiry(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let accounts = AccountClient(baseURL: base, transport: transport)
            let me = try await accounts.logIn(
                email: DemoCredentials.loginEmail, password: Secret(DemoCredentials.loginPassword))
            #expect(me.email == DemoCredentials.loginEmail)
            // The server expires the token now (through a client of its own, so a recording leaves it out); a
            // replay is answered the 401 that was recorded.
            if backend == .demoServer {
                let token = try #require(await accounts.tokens.currentToken)
                try await APIClient(baseURL: base).send(
                    APIRequest<Void>.post("/auth/expire", headers: [.authorization: "Bearer \(token.value)"]))
            }
            #expect(try await accounts.me().name == "Ada Lovelace")
            let stats = try await APIClient(baseURL: base, transport: transport).send(
                APIRequest<AuthStats>.get("/auth/stats"))
            // What the server counted; a replay reads back the recorded count, which proves nothing.
            if backend == .demoServer { #expect(stats.refreshes == 1) }
        }
    }

    @Test(arguments: ExampleBackend.active) func wrongCredentialsSurfaceTheServersMessage(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let password = "wrong-password-xyz"
            let error = await #expect(throws: APIError.self) {
                try await AccountClient(baseURL: base, transport: transport).logIn(
                    email: DemoCredentials.loginEmail, password: Secret(password))
            }
            #expect(error?.status == .badRequest)
            #expect(error?.errorBody(as: AccountError.self)?.message == "Invalid email or password")
            #expect(error?.description.contains(password) == false)
        }
    }

    @Test(arguments: ExampleBackend.active) func meBeforeLoggingInIsAClearError(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let error = await #expect(throws: APIError.self) {
                try await AccountClient(baseURL: base, transport: transport).me()
            }
            #expect(error?.kind == .authenticationFailed)
            #expect(error?.description.contains("not logged in") == true)
        }
    }
}
