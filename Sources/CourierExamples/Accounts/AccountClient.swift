public import Courier
public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// Form login with a bearer token: `POST /auth/local` with `email` and `password` form-encoded,
/// then `GET /me` with `Authorization: Bearer`. An expired token is refreshed with the refresh token (once,
/// however many requests noticed). A wrong password surfaces the server's own message
/// (`error.errorBody(as: AccountError.self)?.message`) instead of swallowing it.
///
/// ```swift
/// let accounts = AccountClient(baseURL: url)
/// try await accounts.logIn(email: "ada@example.com", password: password)
/// let me = try await accounts.me()
/// ```
public struct AccountClient: Sendable {
    let auth: APIClient
    let client: APIClient
    /// The store holding the access token.
    public let tokens: TokenStore

    /// A client for `baseURL`; call ``logIn(email:password:tokenLifetime:)`` first.
    public init(
        baseURL: URL, transport: any ClientTransport = DefaultTransport.make(), middlewares: [any ClientMiddleware] = []
    ) {
        let auth = APIClient(baseURL: baseURL, transport: transport) { $0.errorBody = AccountError.self }
        self.auth = auth
        // BEGIN DOCC: accounts token store
        tokens = TokenStore { expired in
            guard let refreshToken = expired?.refreshToken else {
                throw APIError(.authenticationFailed, phase: .sending, message: "not logged in")
            }
            let grant = try await auth.send(
                APIRequest<AccountGrant>.post("/auth/refresh", body: .form(["refreshToken": refreshToken])))
            return AuthToken(value: grant.token, refreshToken: grant.refreshToken)
        }
        // END DOCC: accounts token store
        client = APIClient(
            baseURL: baseURL, transport: transport, middlewares: middlewares + [.bearerToken(store: tokens)]
        ) { $0.errorBody = AccountError.self }
    }

    /// Logs in; later calls carry the token. `tokenLifetime` asks the demo server for short-lived tokens.
    @discardableResult
    public func logIn(email: String, password: Secret, tokenLifetime: Duration? = nil) async throws(APIError) -> Account
    {
        var query: Query = [:]
        if let tokenLifetime {
            query["ttl"] = .init(
                Double(tokenLifetime.components.seconds) + Double(tokenLifetime.components.attoseconds) / 1e18)
        }
        let form: Query = ["email": email, "password": password.value]
        let grant = try await auth.send(APIRequest<AccountGrant>.post("/auth/local", query: query, body: .form(form)))
        // No expiry is given to the store, so an expired token is found out by a 401 and refreshed then.
        await tokens.set(AuthToken(value: grant.token, refreshToken: grant.refreshToken))
        return try await me()
    }

    /// The signed-in account.
    public func me() async throws(APIError) -> Account {
        try await client.send(APIRequest<Account>.get("/me"))
    }
}
