public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Sends the ``TokenStore``'s token as `Authorization: Bearer …`; on a `401`, refreshes it (once for all
/// requests that failed together) and replays the request a single time with the new token.
///
/// A request is never replayed with the credential it already failed with, a replay that gets `401` again
/// is returned as it is (no loop), and a request whose body can be read only once is not replayed. A `401`
/// whose `WWW-Authenticate` says `insufficient_scope` is returned as it is: a refreshed token has the same
/// scope.
/// Like ``CredentialMiddleware``, it sends the token only to the base URL's origin and the `origins` named.
public struct TokenRefreshMiddleware: ClientMiddleware {
    /// Where the token comes from.
    public let store: TokenStore
    /// Where the token goes besides the client's base URL's origin.
    public let origins: Set<Origin>

    /// Bearer authentication from `store`, sent to the base URL's origin and `origins`.
    public init(store: TokenStore, origins: Set<Origin> = []) {
        self.store = store
        self.origins = origins
    }

    /// Adds the token, and refreshes and replays once on `401`.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard CredentialScope.covers(request, baseURL: baseURL, origins: origins) else {
            return try await next(request, body, baseURL)
        }
        let token = try await store.validToken()
        var request = request
        request.headerFields[.authorization] = "Bearer \(token.value)"
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status == .unauthorized, body?.iterationBehavior != .single,
            !Self.refusesTheScope(response)
        else {
            return (response, responseBody)
        }
        let fresh = try await store.refresh(replacing: token)
        guard fresh != token else { return (response, responseBody) }
        request.headerFields[.authorization] = "Bearer \(fresh.value)"
        return try await next(request, body, baseURL)
    }

    /// Whether the server's bearer challenge says the token lacks a scope (RFC 6750 §3.1), which a refreshed
    /// token would lack too.
    static func refusesTheScope(_ response: HTTPResponse) -> Bool {
        AuthenticationChallenge.challenges(in: response.headerFields).contains {
            $0.scheme == "bearer" && $0.error == "insufficient_scope"
        }
    }
}

extension ClientMiddleware where Self == TokenRefreshMiddleware {
    /// Bearer authentication with a token that `store` refreshes when it expires or is rejected, sent to the
    /// base URL's origin and `origins`.
    public static func bearerToken(store: TokenStore, origins: Set<Origin> = []) -> Self {
        TokenRefreshMiddleware(store: store, origins: origins)
    }
}
