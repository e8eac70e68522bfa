import Courier
import Crypto
import Foundation

/// The listings of the OAuth 2.0 and browser-session symbols' comments, compiled (see `DocCSymbolListings`).
enum OAuthSymbolListings {
    static func providers(issuer: URL, tokenEndpoint: URL, secret: String) async throws -> [OAuth2Provider] {
        // BEGIN DOCC: OAuth2Provider
        let provider = try await OAuth2Provider.discover(
            issuer: issuer, client: .confidential(id: "svc", secret: secret))
        let byHand = OAuth2Provider(tokenEndpoint: tokenEndpoint, client: .public(id: "cli"))
        // END DOCC: OAuth2Provider
        return [provider, byHand]
    }

    static func grants(provider: OAuth2Provider) async throws {
        // BEGIN DOCC: OAuth2Client
        let oauth = OAuth2Client(provider: provider)
        let token = try await oauth.clientCredentials(scope: ["read"])
        let renewed = try await oauth.refresh(token)  // a rotated refresh token comes back in `renewed`
        try await oauth.revoke(renewed)
        // END DOCC: OAuth2Client
    }

    static func signInAgain(
        oauth: OAuth2Client, token: OAuth2Token, signIn: () async throws -> OAuth2Token
    ) async throws -> OAuth2Token {
        var token = token
        // BEGIN DOCC: OAuth2ErrorResponse
        do {
            token = try await oauth.refresh(token)
        } catch {
            guard error.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant" else { throw error }
            token = try await signIn()  // the refresh token is no longer valid
        }
        // END DOCC: OAuth2ErrorResponse
        return token
    }

    #if canImport(NIOPosix)
        static func loopback(oauth: OAuth2Client) async throws -> OAuth2Token {
            // BEGIN DOCC: OAuth2LoopbackUserAgent
            let agent = OAuth2LoopbackUserAgent { url in print("Sign in at \(url)") }
            let token = try await oauth.authorizationCode(scope: ["openid", "read"], userAgent: agent)
            // END DOCC: OAuth2LoopbackUserAgent
            return token
        }
    #endif

    // BEGIN DOCC: OAuth2UserAgent
    struct AppSignIn: OAuth2UserAgent {
        let redirectURI: URL  // com.example.app:/oauth/callback, registered with the provider
        let present: @Sendable (URL) async throws -> URL  // shows the page, returns the callback
        func authorize(_ makeURL: (URL) throws -> URL) async throws -> URL {
            try await present(try makeURL(redirectURI))
        }
    }
    // END DOCC: OAuth2UserAgent

    static func session(
        oauth: OAuth2Client, storage: any OAuth2TokenStorage, agent: any OAuth2UserAgent, apiURL: URL
    ) async throws -> APIClient {
        // BEGIN DOCC: OAuth2Session
        let session = OAuth2Session(client: oauth, storage: storage)
        if try await session.token() == nil {
            try await session.signIn(try await oauth.authorizationCode(scope: ["read"], userAgent: agent))
        }
        let api = APIClient(baseURL: apiURL, middlewares: [.oauth2(session)])
        // END DOCC: OAuth2Session
        return api
    }

    static func encryptedFile(keyBytes: Data, tokensURL: URL) throws -> EncryptedFileOAuth2TokenStorage {
        // BEGIN DOCC: EncryptedFileOAuth2TokenStorage
        let key = SymmetricKey(data: keyBytes)  // 32 bytes the app keeps secret
        let storage = try EncryptedFileOAuth2TokenStorage(file: tokensURL, key: key)
        // END DOCC: EncryptedFileOAuth2TokenStorage
        return storage
    }

    static func challenge(error: APIError) {
        // BEGIN DOCC: AuthenticationChallenge
        if let challenge = error.authenticationChallenges.first(where: { $0.scheme == "bearer" }),
            challenge.error == "insufficient_scope"
        {
            print("needs the scope \(challenge.parameters["scope"] ?? "?")")
        }
        // END DOCC: AuthenticationChallenge
    }

    static func device(oauth: OAuth2Client) async throws -> OAuth2Token {
        // BEGIN DOCC: DeviceGrant
        let token = try await oauth.deviceAuthorization(scope: ["read"]) { code in
            print(code)  // Enter WDJB-MJHT at https://auth.example.com/device
        }
        // END DOCC: DeviceGrant
        return token
    }

    static func csrf(url: URL) -> APIClient {
        // BEGIN DOCC: CSRFTokenMiddleware
        let client = APIClient(baseURL: url, middlewares: [.csrfToken(cookie: "csrftoken", header: .xCSRFToken)]) {
            $0.cookieJar = CookieJar()
        }
        // END DOCC: CSRFTokenMiddleware
        return client
    }
}
