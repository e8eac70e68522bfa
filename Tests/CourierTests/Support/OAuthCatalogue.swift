import Courier
import Foundation

/// The authorization server `scripts/test` starts (django-oauth-toolkit, `scripts/servers/oauth_app.py`): its
/// URLs, user and registered clients, read from the `catalogue.json` that `COURIER_OAUTH_CATALOGUE` names.
struct OAuthCatalogue: Decodable, Sendable {
    struct User: Decodable, Sendable {
        let username: String
        let password: String
    }

    struct Client: Decodable, Sendable {
        let client_id: String
        let client_secret: String?
    }

    let base_url: String
    let issuer: String
    let user: User
    let redirect_uri: String
    let clients: [String: Client]
    /// Token pairs of the user for `code_confidential`, one per test that refreshes or revokes.
    let seeded_tokens: [Seeded]

    struct Seeded: Decodable, Sendable {
        let access_token: String
        let refresh_token: String

        var token: OAuth2Token { OAuth2Token(accessToken: access_token, refreshToken: refresh_token, scope: ["read"]) }
    }

    /// The catalogue `scripts/test` wrote, or `nil` when it did not (tests are then skipped, except on CI).
    static let current = TestCatalogue.load(OAuthCatalogue.self, named: "COURIER_OAUTH_CATALOGUE")

    /// Whether the OAuth tests run: when the server is there, and always on CI, where a missing one must fail.
    static let available = TestCatalogue.runs(current)

    /// The catalogue, or a test failure saying how to get one.
    static func required() throws -> OAuthCatalogue {
        guard let current else { throw CatalogueMissing() }
        return current
    }

    struct CatalogueMissing: Error, CustomStringConvertible {
        var description: String {
            "COURIER_OAUTH_CATALOGUE does not name a readable catalogue.json: run the tests with scripts/test"
        }
    }

    /// The issuer as a URL.
    var issuerURL: URL { URL(string: issuer) ?? URL(fileURLWithPath: "/") }
    /// The server's root, where its protected resource `/api/me` is.
    var baseURL: URL { URL(string: base_url) ?? URL(fileURLWithPath: "/") }

    /// The registration of the client named `name` (`client_credentials`, `code_public`, `code_confidential`,
    /// `device`).
    func registration(_ name: String) throws -> OAuth2ClientRegistration {
        guard let client = clients[name] else { throw CatalogueMissing() }
        return OAuth2ClientRegistration(id: client.client_id, secret: client.client_secret)
    }
}
