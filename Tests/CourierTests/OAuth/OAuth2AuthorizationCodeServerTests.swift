import Courier
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The authorization code grant with PKCE against django-oauth-toolkit, through the loopback listener: the
/// test plays the browser, signed in to the server with a session cookie, following the authorize redirect to
/// Courier's listener.
@Suite(.enabled(if: OAuthCatalogue.available), .timeLimit(.minutes(2)))
struct OAuth2AuthorizationCodeServerTests {
    /// The server, an OAuth client for its registered client `name`, and a browser signed in as its user.
    static func signingIn(with name: String) async throws -> (OAuthCatalogue, OAuth2Client, TestBrowser) {
        let catalogue = try OAuthCatalogue.required()
        let provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration(name))
        return (catalogue, OAuth2Client(provider: provider), try await TestBrowser.signedIn(to: catalogue))
    }

    @Test(arguments: ["code_public", "code_confidential"])
    func signInThroughTheLoopbackListenerGivesTheUsersToken(clientName: String) async throws {
        let (catalogue, oauth, browser) = try await Self.signingIn(with: clientName)
        let registration = oauth.provider.client
        let agent = OAuth2LoopbackUserAgent { url in try await browser.open(url) }
        let token = try await oauth.authorizationCode(scope: ["openid", "read"], userAgent: agent)
        #expect(token.refreshToken != nil)
        #expect(token.idToken != nil, "openid was asked for")
        #expect(token.scope == ["openid", "read"])
        let me = try await APIClient(baseURL: catalogue.baseURL).send(OAuth2ServerTests.GetMe(token: token))
        #expect(me.user == catalogue.user.username)
        #expect(me.client == registration.id)
        // What the browser was sent: the challenge and its method, never the verifier.
        let authorize = try #require(browser.opened.first)
        #expect(authorize.contains("code_challenge_method=S256"))
        #expect(authorize.contains("redirect_uri=http%3A%2F%2F127.0.0.1%3A"))
        try await eventually("the browser shows the listener's page") { !browser.pages.isEmpty }
        #expect(browser.pages.last?.contains("Signed in") == true, "\(browser.pages)")
    }

    @Test func reusingARotatedRefreshTokenRevokesTheWholeFamily() async throws {
        let (catalogue, oauth, browser) = try await Self.signingIn(with: "code_confidential")
        let first = try await oauth.authorizationCode(
            scope: ["read"], userAgent: OAuth2LoopbackUserAgent { try await browser.open($0) })
        let second = try await oauth.refresh(first)
        #expect(second.refreshToken != first.refreshToken)
        let resource = APIClient(baseURL: catalogue.baseURL)
        _ = try await resource.send(OAuth2ServerTests.GetMe(token: second))
        // A stolen, already-used refresh token comes back: the server refuses it and ends its family, so the
        // current tokens stop working too (REFRESH_TOKEN_REUSE_PROTECTION).
        let reuse = await #expect(throws: APIError.self) { try await oauth.refresh(first) }
        #expect(reuse?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant")
        let refused = await #expect(throws: APIError.self) { try await oauth.refresh(second) }
        #expect(refused?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant")
        let revoked = await #expect(throws: APIError.self) {
            try await resource.send(OAuth2ServerTests.GetMe(token: second))
        }
        #expect(revoked?.status == .unauthorized)
    }

    @Test func aCodeIsExchangedOnlyOnce() async throws {
        let (_, oauth, browser) = try await Self.signingIn(with: "code_public")
        let redirectURI = try #require(URL(string: "http://127.0.0.1:9/callback"))
        let request = try oauth.authorizationRequest(redirectURI: redirectURI, scope: ["read"])
        let callback = try await browser.callback(for: request.url)
        _ = try await oauth.exchange(callback: callback, for: request)
        let error = await #expect(throws: APIError.self) { try await oauth.exchange(callback: callback, for: request) }
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant")
        let text = error?.description ?? ""
        #expect(text.contains("authorization code grant failed"), "\(text)")
        let code = OAuth2ClientTests.parameter("code", of: callback) ?? "-"
        #expect(!text.contains(code))
    }
}

/// A signed-in browser, played by an `APIClient` with a cookie jar that follows no redirect: it opens an
/// authorize URL and goes where the server sends it.
final class TestBrowser: Sendable {
    let client: APIClient
    let visited = Mutex<(opened: [String], pages: [String])>(([], []))

    /// The URLs `open` was given.
    var opened: [String] { visited.withLock { $0.opened } }
    /// The pages the loopback listener answered.
    var pages: [String] { visited.withLock { $0.pages } }

    private init(client: APIClient) { self.client = client }

    /// A browser signed in to the server as its user; with `csrf`, it echoes Django's CSRF cookie on posts.
    static func signedIn(to catalogue: OAuthCatalogue, csrf: Bool = true) async throws -> TestBrowser {
        let middlewares: [any ClientMiddleware] = csrf ? [.csrfToken(cookie: "csrftoken", header: .xCSRFToken)] : []
        let client = APIClient(baseURL: catalogue.baseURL, middlewares: middlewares) {
            $0.cookieJar = CookieJar()
            $0.redirectPolicy = .never
        }
        let login = APIRequest<Data>.post(
            "/login/", body: .form(["username": catalogue.user.username, "password": catalogue.user.password]))
        _ = try await client.send(login)
        return TestBrowser(client: client)
    }

    /// Where the authorize URL sends the signed-in user: the callback with its code.
    func callback(for url: URL) async throws -> URL {
        let response = try await client.response(Page(url: url))
        let location = try #require(
            response.headerFields[.location], "the authorize endpoint answered \(response.status)")
        return try #require(URL(string: location))
    }

    /// Opens `url` and follows the redirect to the callback, as a browser would, keeping the page shown.
    func open(_ url: URL) async throws {
        visited.withLock { $0.opened.append(url.absoluteString) }
        let callback = try await callback(for: url)
        // The listener is another origin than the server's: a client of its own, as a browser tab would be.
        let origin = try #require(URL(string: "http://127.0.0.1:\(callback.port ?? 0)"))
        // Not a child of the sign-in: once the listener has its answer, it cancels `open`, as it should.
        let reading = Task { try await APIClient(baseURL: origin).send(Page(url: callback)) }
        Task {
            let page = (try? await reading.value).map { String(decoding: $0, as: UTF8.self) } ?? "(no page)"
            visited.withLock { $0.pages.append(page) }
        }
        _ = try await reading.value
    }

    /// Enters `userCode` at the server's device page and accepts the device, or denies it (RFC 8628 §3.3).
    func decide(userCode: String, accept: Bool) async throws {
        let entered = try await client.response(
            FormPage(path: "/o/device/", fields: ["user_code": userCode]))
        let confirm = try #require(entered.headerFields[.location], "the device page answered \(entered.status)")
        let decided = try await client.response(
            FormPage(path: RoutePath(stringLiteral: confirm), fields: ["action": accept ? "accept" : "deny"]))
        #expect(decided.status == .found, "the confirmation page answered \(decided.status)")
    }

    /// A form posted as a browser would, its redirect not followed.
    struct FormPage: Endpoint {
        typealias Response = Data
        let path: RoutePath
        let fields: Query
        var method: HTTPRequest.Method { .post }
        var body: RequestBody { .form(fields) }
        var acceptableStatuses: AcceptableStatuses? { [200..<400] }
    }

    /// Any page, as it is, a redirect included.
    struct Page: Endpoint {
        typealias Response = Data
        let url: URL
        var path: RoutePath { .url(url) }
        var acceptableStatuses: AcceptableStatuses? { [200..<400] }
    }
}
