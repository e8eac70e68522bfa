import Foundation
import HTTPTypes

/// Obtains, refreshes and revokes tokens at an ``OAuth2Provider``: each grant is one call that returns an
/// ``OAuth2Token`` or throws an ``APIError`` naming the grant and the endpoint, with the server's
/// ``OAuth2ErrorResponse`` as its ``APIError/errorBody``.
///
/// ```swift
/// let oauth = OAuth2Client(provider: provider)
/// let token = try await oauth.clientCredentials(scope: ["read"])
/// let renewed = try await oauth.refresh(token)  // a rotated refresh token comes back in `renewed`
/// try await oauth.revoke(renewed)
/// ```
/// Its requests go only to the provider's endpoints, with no middleware of yours: a grant never waits on a
/// token it is obtaining. Tokens, codes and the client secret are secrets in every message and log.
public struct OAuth2Client: Sendable {
    /// The authorization server and this app's registration.
    public let provider: OAuth2Provider
    /// Sends the grants' requests.
    let client: APIClient
    /// What an `expires_in` is counted from.
    let time: TimeSource

    /// A client for `provider`.
    /// - Parameters:
    ///   - provider: the authorization server and this app's registration.
    ///   - transport: what sends the requests; Courier's default transport unless given.
    ///   - clock: what tells the time a token arrived (its expiry is counted from it); a test clock in tests.
    public init(
        provider: OAuth2Provider, transport: any ClientTransport = DefaultTransport.make(),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.provider = provider
        // The token endpoint's origin: every request names its endpoint in full, and an endpoint may carry a query
        // (Azure AD B2C's `?p=policy`), which a base URL must not.
        let base = Origin(provider.tokenEndpoint).flatMap { URL(string: $0.description) } ?? provider.tokenEndpoint
        client = APIClient(baseURL: base, transport: transport) {
            $0.allowedOrigins = provider.origins
            $0.redaction = .oauth2
            $0.clock = clock
        }
        time = TimeSource(clock)
    }

    // MARK: Grants

    /// The client credentials grant (RFC 6749 §4.4): a service's own token, no user involved.
    public func clientCredentials(scope: [String] = []) async throws(APIError) -> OAuth2Token {
        var fields: Query = ["grant_type": "client_credentials"]
        if !scope.isEmpty { fields.append("scope", scope.joined(separator: " ")) }
        return try await requestToken(grant: "client credentials grant", fields: fields, scope: scope)
    }

    /// Exchanges `token`'s refresh token for a new token (RFC 6749 §6). With refresh-token rotation the
    /// result carries a new refresh token; without, it keeps `token`'s.
    public func refresh(_ token: OAuth2Token, scope: [String] = []) async throws(APIError) -> OAuth2Token {
        guard let refreshToken = token.refreshToken else {
            throw APIError(
                .authenticationFailed, phase: .building, message: "the token has no refresh token to refresh with")
        }
        var fields: Query = ["grant_type": "refresh_token", "refresh_token": refreshToken]
        if !scope.isEmpty { fields.append("scope", scope.joined(separator: " ")) }
        var renewed = try await requestToken(
            grant: "refresh", fields: fields, scope: scope.isEmpty ? token.scope ?? [] : scope,
            secrets: [refreshToken])
        if renewed.refreshToken == nil { renewed.refreshToken = refreshToken }
        return renewed
    }

    /// Revokes `token` (RFC 7009): its refresh token when it has one (which, at most servers, ends the
    /// access tokens issued with it too), else its access token.
    public func revoke(_ token: OAuth2Token) async throws(APIError) {
        if let refreshToken = token.refreshToken {
            try await revoke(refreshToken, hint: "refresh_token")
        } else {
            try await revoke(token.accessToken, hint: "access_token")
        }
    }

    /// Revokes one token string, telling the server which kind it is (`access_token`, `refresh_token`).
    public func revoke(_ token: String, hint: String) async throws(APIError) {
        guard let endpoint = provider.revocationEndpoint else {
            throw APIError(
                .invalidRequest, phase: .building, message: "the provider has no revocation endpoint (RFC 7009)")
        }
        // The answer's body, if any, says nothing: `Data` takes it as it is.
        let request = FormPost<Data>(
            url: endpoint, fields: ["token": token, "token_type_hint": hint], registration: provider.client,
            operation: "revocation")
        try await send(request, secrets: [token])
    }

    /// Posts a token request and reads the token it answers; `scope` is what was asked for, which the token
    /// has when the server does not say (RFC 6749 §5.1). Only bearer tokens are taken: a client must not use
    /// a token type it does not understand (§7.1).
    func requestToken(grant: String, fields: Query, scope: [String], secrets: [String] = []) async throws(APIError)
        -> OAuth2Token
    {
        let request = FormPost<TokenResponse>(
            url: provider.tokenEndpoint, fields: fields, registration: provider.client, operation: grant)
        // Counted from before the request: the server's clock started `expires_in` no later than that.
        let sentAt = time.date
        let response = try await send(request, secrets: secrets)
        guard response.tokenType.lowercased() == "bearer" else {
            throw APIError(
                .rejected, phase: .inspecting,
                message: "OAuth 2.0 \(grant): the token endpoint issued a \(response.tokenType) token; Courier sends "
                    + "only bearer tokens (RFC 6750)")
        }
        var token = response.token(receivedAt: sentAt)
        if token.scope == nil, !scope.isEmpty { token.scope = scope }
        return token
    }

    /// Sends `request`. A failure's message says which operation failed, with the server's OAuth error, and
    /// no failure shows the client secret or `secrets` (what the request's body carried) in any spelling, even
    /// where the server's answer quotes them.
    @discardableResult
    func send<Response: Decodable & Sendable>(_ request: FormPost<Response>, secrets: [String] = [])
        async throws(APIError)
        -> Response
    {
        let hidden = ([provider.client.secret].compactMap { $0 } + secrets).filter { !$0.isEmpty }
        do {
            return try await FailureContext.$bodySecrets.withValue(hidden) { try await client.send(request) }
        } catch {
            throw APIError.oauth2(error, context: "OAuth 2.0 \(request.operation) failed", kind: .transport)
        }
    }
}

extension Redaction {
    /// Courier's defaults and OAuth's own form fields and JSON keys: authorization codes, PKCE verifiers, ID
    /// tokens, device codes, client assertions. What ``OAuth2Client`` uses; give it to a cassette or a
    /// logger that sees OAuth traffic.
    public static let oauth2: Redaction = {
        var redaction = Redaction.default
        redaction.queryNames.formUnion([
            "code", "code_verifier", "id_token", "device_code", "client_assertion", "assertion", "subject_token",
        ])
        return redaction
    }()
}

/// A form `POST` to an OAuth endpoint, authenticated as the registration says (RFC 6749 §2.3.1).
struct FormPost<Value: Decodable & Sendable>: Endpoint {
    typealias Response = Value
    let url: URL
    let fields: Query
    let registration: OAuth2ClientRegistration
    /// What the request is, in words: "client credentials grant", "refresh", "revocation".
    let operation: String

    var method: HTTPRequest.Method { .post }
    var path: RoutePath { .url(url) }
    var body: RequestBody {
        var fields = fields
        switch registration.authentication {
        case .secretBasic: break
        case .secretPost:
            fields.append("client_id", registration.id)
            fields.append("client_secret", registration.secret ?? "")
        case .noSecret: fields.append("client_id", registration.id)
        }
        return .form(fields)
    }
    var headers: HTTPFields {
        // The media type exactly as the OAuth RFCs write it: oauthlib's device endpoint refuses a `charset`.
        var headers: HTTPFields = [.accept: "application/json", .contentType: "application/x-www-form-urlencoded"]
        if registration.authentication == .secretBasic {
            // Each part form-encoded first, then joined and base64-encoded (RFC 6749 §2.3.1).
            headers[.authorization] = CredentialMiddleware.basicAuthorization(
                username: Self.formEncoded(registration.id), password: Self.formEncoded(registration.secret ?? ""))
        }
        return headers
    }
    var errorBody: (any (Decodable & Sendable).Type)? { OAuth2ErrorResponse.self }
    /// Never followed: a redirect would carry the body (a secret, a refresh token) to wherever it points.
    var redirectPolicy: RedirectPolicy? { .never }
    var cacheMode: CacheMode? { .bypass }
    var coalesces: Bool? { false }
    var operationID: String { "oauth2 \(operation)" }

    /// Some servers answer an OAuth error with `200`: that is the error, not a token that failed to decode.
    func inspect(_ response: HTTPResponse, body: Data) throws {
        guard body.first == UInt8(ascii: "{"),
            let error = try? JSONDecoder().decode(OAuth2ErrorResponse.self, from: body)
        else { return }
        throw error
    }

    /// `application/x-www-form-urlencoded` encoding of one value.
    static func formEncoded(_ value: String) -> String {
        PercentEncoding.form.encode(value)
    }
}
