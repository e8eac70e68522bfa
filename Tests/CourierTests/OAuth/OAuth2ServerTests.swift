import Courier
import Foundation
import HTTPTypes
import Testing

/// Courier's OAuth 2.0 client against django-oauth-toolkit, a real authorization server `scripts/test` starts:
/// discovery, the client credentials grant, revocation, and the server's errors.
@Suite(.enabled(if: OAuthCatalogue.available), .timeLimit(.minutes(2)))
struct OAuth2ServerTests {
    /// What the server's protected resource says about the token it was sent.
    struct Me: Decodable, Sendable {
        let user: String?
        let client: String
        let scope: String
    }

    /// The protected resource, sent with an access token.
    struct GetMe: Endpoint {
        typealias Response = Me
        let token: OAuth2Token
        var path: RoutePath { "/api/me" }
        var headers: HTTPFields { [.authorization: "Bearer \(token.accessToken)"] }
    }

    @Test func discoveryReadsBothMetadataDocuments() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("client_credentials"))
        let base = catalogue.base_url
        #expect(provider.issuer == catalogue.issuerURL)
        #expect(provider.tokenEndpoint.absoluteString == "\(base)/o/token/")
        #expect(provider.authorizationEndpoint?.absoluteString == "\(base)/o/authorize/")
        // Only in RFC 8414's document:
        #expect(provider.revocationEndpoint?.absoluteString == "\(base)/o/revoke_token/")
        // Only in OpenID Connect's (when it is missing, say why the document could not be read):
        if provider.userinfoEndpoint == nil {
            let document = URL(string: "\(catalogue.issuer)/.well-known/openid-configuration") ?? catalogue.baseURL
            do {
                let body = try await APIClient(baseURL: catalogue.baseURL).send(APIRequest<Data>.get(.url(document)))
                Issue.record("no userinfo endpoint, yet the OpenID Connect document reads now: \(body.count) bytes")
            } catch {
                Issue.record("no userinfo endpoint; the OpenID Connect document: \(error)")
            }
        }
        #expect(provider.userinfoEndpoint?.absoluteString == "\(base)/o/userinfo/")
        #expect(provider.jwksURI?.absoluteString == "\(base)/o/.well-known/jwks.json")
    }

    @Test func discoveryRefusesMetadataNamingAnotherIssuer() async throws {
        let catalogue = try OAuthCatalogue.required()
        // The server's documents for /o name http://127.0.0.1:PORT/o; asked for the origin alone, the OpenID
        // document is missing and RFC 8414's for the origin names /o.
        let error = await #expect(throws: APIError.self) {
            try await OAuth2Provider.discover(
                issuer: catalogue.baseURL, client: catalogue.registration("client_credentials"))
        }
        #expect(error?.kind == .rejected, "\(error?.description ?? "")")
        #expect(error?.description.contains("names another issuer") == true, "\(error?.description ?? "")")
    }

    @Test func clientCredentialsTokenIsAcceptedByTheResourceServer() async throws {
        let catalogue = try OAuthCatalogue.required()
        let registration = try catalogue.registration("client_credentials")
        let provider = try await OAuth2Provider.discover(issuer: catalogue.issuerURL, client: registration)
        let token = try await OAuth2Client(provider: provider).clientCredentials(scope: ["read"])
        #expect(token.tokenType == "Bearer")
        #expect(token.scope == ["read"])
        #expect(token.expiresAt.map { $0.timeIntervalSinceNow > 200 } == true, "expires_in 300 s")
        #expect(!token.description.contains(token.accessToken))
        let me = try await APIClient(baseURL: catalogue.baseURL).send(GetMe(token: token))
        #expect(me.client == registration.id)
        #expect(me.user == nil, "no user in a client credentials grant")
        #expect(me.scope == "read")
    }

    @Test(arguments: [OAuth2ClientRegistration.Authentication.secretBasic, .secretPost])
    func aWrongSecretIsTheServersInvalidClientErrorWithoutTheSecret(
        authentication: OAuth2ClientRegistration.Authentication
    ) async throws {
        let catalogue = try OAuthCatalogue.required()
        let registration = try catalogue.registration("client_credentials")
        let wrongSecret = "wrong-\(UUID().uuidString)"
        var provider = try await OAuth2Provider.discover(issuer: catalogue.issuerURL, client: registration)
        provider.client = .confidential(id: registration.id, secret: wrongSecret, authentication: authentication)
        let error = await #expect(throws: APIError.self) {
            try await OAuth2Client(provider: provider).clientCredentials()
        }
        #expect(error?.status == .unauthorized)
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_client")
        let text = error?.description ?? ""
        #expect(text.contains("client credentials grant failed: invalid_client"), "\(text)")
        #expect(text.contains("POST \(catalogue.base_url)/o/token/"), "\(text)")
        #expect(!text.contains(wrongSecret))
        #expect(!String(reflecting: provider.client).contains(wrongSecret))
    }

    @Test func aRevokedTokenIsRefusedByTheResourceServer() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("client_credentials"))
        let oauth = OAuth2Client(provider: provider)
        let token = try await oauth.clientCredentials(scope: ["read"])
        let resource = APIClient(baseURL: catalogue.baseURL)
        _ = try await resource.send(GetMe(token: token))
        try await oauth.revoke(token)
        let error = await #expect(throws: APIError.self) { try await resource.send(GetMe(token: token)) }
        #expect(error?.responseHeaders?[.wwwAuthenticate]?.contains("invalid_token") == true)
        #expect(error?.status == .unauthorized, "\(error?.description ?? "")")
    }

    @Test func refreshRotatesTheRefreshTokenAndTheServerRefusesTheOldOne() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("code_confidential"))
        let oauth = OAuth2Client(provider: provider)
        let old = catalogue.seeded_tokens[0].token
        let renewed = try await oauth.refresh(old)
        #expect(renewed.refreshToken != nil && renewed.refreshToken != old.refreshToken, "rotated")
        #expect(renewed.accessToken != old.accessToken)
        #expect(renewed.scope == ["read"])
        let me = try await APIClient(baseURL: catalogue.baseURL).send(GetMe(token: renewed))
        #expect(me.user == catalogue.user.username)
        // The old refresh token is spent. (Presenting it again also revokes its family at this server, but only
        // for tokens a grant issued with a family: the seeded pair has none, so that waits for the code grant.)
        let error = await #expect(throws: APIError.self) { try await oauth.refresh(old) }
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant", "\(error?.description ?? "")")
        #expect(error?.description.contains(old.refreshToken ?? "-") == false)
    }

    @Test func revokingARefreshTokenEndsItsAccessTokenToo() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("code_confidential"))
        let token = catalogue.seeded_tokens[1].token
        let resource = APIClient(baseURL: catalogue.baseURL)
        _ = try await resource.send(GetMe(token: token))
        try await OAuth2Client(provider: provider).revoke(token)
        let error = await #expect(throws: APIError.self) { try await resource.send(GetMe(token: token)) }
        #expect(error?.status == .unauthorized, "\(error?.description ?? "")")
    }

    @Test func refreshingATokenWithoutARefreshTokenSaysSoBeforeSending() async throws {
        let catalogue = try OAuthCatalogue.required()
        let provider = OAuth2Provider(
            tokenEndpoint: catalogue.issuerURL.appending(path: "token/"),
            client: try catalogue.registration("client_credentials"))
        let error = await #expect(throws: APIError.self) {
            try await OAuth2Client(provider: provider).refresh(OAuth2Token(accessToken: "a"))
        }
        #expect(error?.kind == .authenticationFailed)
        #expect(error?.phase == .building)
    }
}
