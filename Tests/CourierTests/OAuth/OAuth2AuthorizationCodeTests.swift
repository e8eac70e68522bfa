import Courier
import CourierTesting
import Crypto
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The authorization code grant's own logic, on a mock token endpoint (PKCE, `state`, `nonce`, the
/// callback's errors), and the loopback listener on a real socket. Against a real server:
/// `OAuth2AuthorizationCodeServerTests`.
struct OAuth2AuthorizationCodeTests {
    static let authorizeURL = URL(filePath: "/").with(origin: "https://auth.example.com", path: "/authorize")
    static let redirectURI = URL(filePath: "/").with(origin: "http://127.0.0.1:8765", path: "/callback")

    static func client(_ transport: MockTransport = OAuth2ClientTests.answering(json: OAuth2ClientTests.bearer))
        -> OAuth2Client
    {
        var provider = OAuth2ClientTests.provider(.public(id: "cli"))
        provider.issuer = URL(filePath: "/").with(origin: "https://auth.example.com", path: "")
        provider.authorizationEndpoint = authorizeURL
        return OAuth2Client(provider: provider, transport: transport)
    }

    /// `url` with `parameters` added to its query.
    static func callback(_ parameters: [String: String]) -> URL {
        var components = URLComponents(url: redirectURI, resolvingAgainstBaseURL: false)
        components?.queryItems = parameters.sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value)
        }
        return components?.url ?? redirectURI
    }

    @Test func theRequestCarriesAnS256ChallengeOfTheVerifierSentWithTheCode() async throws {
        let transport = OAuth2ClientTests.answering(json: OAuth2ClientTests.bearer)
        let oauth = Self.client(transport)
        let request = try oauth.authorizationRequest(
            redirectURI: Self.redirectURI, scope: ["read", "write"],
            additionalParameters: ["prompt": "login", "state": "mine", "code_challenge_method": "plain"])
        let url = request.url
        #expect(url.absoluteString.hasPrefix("https://auth.example.com/authorize?response_type=code&client_id=cli&"))
        #expect(OAuth2ClientTests.parameter("redirect_uri", of: url) == Self.redirectURI.absoluteString)
        #expect(OAuth2ClientTests.parameter("scope", of: url) == "read write")
        #expect(OAuth2ClientTests.parameter("prompt", of: url) == "login")
        #expect(OAuth2ClientTests.parameter("code_challenge_method", of: url) == "S256", "not replaceable")
        #expect(OAuth2ClientTests.parameter("state", of: url) == request.state)
        #expect(OAuth2ClientTests.parameter("nonce", of: url) == nil, "no openid, no nonce")
        #expect(request.state.count == 22 && request.nonce == nil)

        let token = try await oauth.exchange(
            callback: Self.callback(["code": "c0de", "state": request.state]), for: request)
        #expect(token.accessToken == "at-1")
        let sent = OAuth2ClientTests.fields(try #require(transport.requests.first))
        let verifier = try #require(sent["code_verifier"])
        #expect(verifier.count == 43)
        let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        #expect(OAuth2ClientTests.parameter("code_challenge", of: url) == challenge)
        #expect(sent["grant_type"] == "authorization_code")
        #expect(sent["code"] == "c0de")
        #expect(sent["redirect_uri"] == Self.redirectURI.absoluteString)
        #expect(sent["client_id"] == "cli")
        #expect(!request.description.contains(verifier) && !url.absoluteString.contains(verifier))
    }

    @Test func eachRequestHasItsOwnStateVerifierAndNonce() throws {
        let oauth = Self.client()
        let a = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: ["openid"])
        let b = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: ["openid"])
        #expect(a.state != b.state)
        #expect(a.nonce != nil && a.nonce != b.nonce)
        #expect(OAuth2ClientTests.parameter("nonce", of: a.url) == a.nonce)
        #expect(
            OAuth2ClientTests.parameter("code_challenge", of: a.url)
                != OAuth2ClientTests.parameter("code_challenge", of: b.url))
    }

    @Test(arguments: [
        ([String: String](), "carries no state"),
        (["code": "c0de", "state": "forged"], "not this sign-in's"),
        (["state": "STATE"], "neither a code nor an error"),
        (["code": "c0de", "state": "STATE", "iss": "https://evil.example"], "names the issuer https://evil.example"),
    ])
    func aCallbackThatIsNotThisSignInsAnswerIsRefusedBeforeAnyRequest(parameters: [String: String], reason: String)
        async throws
    {
        let transport = OAuth2ClientTests.answering(json: OAuth2ClientTests.bearer)
        let oauth = Self.client(transport)
        let request = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: ["read"])
        let answered = parameters.mapValues { $0 == "STATE" ? request.state : $0 }
        let error = await #expect(throws: APIError.self) {
            try await oauth.exchange(callback: Self.callback(answered), for: request)
        }
        #expect(error?.kind == .rejected)
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "")")
        #expect(transport.requests.isEmpty)
    }

    @Test(arguments: ["https://auth.example.com", "https://auth.example.com/"])
    func aCallbackNamingTheIssuerIsTaken(issuer: String) async throws {
        let oauth = Self.client()
        let request = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: [])
        let callback = Self.callback(["code": "c0de", "state": request.state, "iss": issuer])
        #expect(try await oauth.exchange(callback: callback, for: request).accessToken == "at-1")
    }

    @Test func aRequestKeptAsJSONHidesItsVerifierFromDumps() throws {
        let request = try Self.client().authorizationRequest(redirectURI: Self.redirectURI, scope: ["read"])
        let kept = try JSONDecoder().decode(OAuth2AuthorizationRequest.self, from: JSONEncoder().encode(request))
        #expect(kept.state == request.state && kept.url == request.url)
        var dumped = ""
        dump(request, to: &dumped)
        #expect(!dumped.contains("codeVerifier"), "\(dumped)")
    }

    @Test func aDeclinedSignInIsTheServersError() async throws {
        let transport = OAuth2ClientTests.answering(json: OAuth2ClientTests.bearer)
        let oauth = Self.client(transport)
        let request = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: ["read"])
        let callback = Self.callback([
            "error": "access_denied", "error_description": "The user said no", "state": request.state,
        ])
        let error = await #expect(throws: APIError.self) { try await oauth.exchange(callback: callback, for: request) }
        #expect(error?.kind == .apiError)
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "access_denied")
        #expect(error?.description.contains("access_denied (The user said no)") == true, "\(error?.description ?? "")")
        #expect(transport.requests.isEmpty)
    }

    @Test func theCodeAndVerifierNeverShowInAFailure() async throws {
        let transport = MockTransport { recorded in
            // A server that quotes what it was sent.
            let echo = String(decoding: recorded.body, as: UTF8.self)
            let json = #"{"error":"invalid_grant","error_description":"bad: \#(echo)"}"#
            return (
                HTTPResponse(status: .badRequest, headerFields: [.contentType: "application/json"]), Data(json.utf8)
            )
        }
        let oauth = Self.client(transport)
        let request = try oauth.authorizationRequest(redirectURI: Self.redirectURI, scope: [])
        let error = await #expect(throws: APIError.self) {
            try await oauth.exchange(
                callback: Self.callback(["code": "s3cret-c0de", "state": request.state]), for: request)
        }
        let verifier = OAuth2ClientTests.fields(try #require(transport.requests.first))["code_verifier"] ?? "-"
        let text = [error?.description, error?.bodySnippet, error?.body.map { String(decoding: $0, as: UTF8.self) }]
            .compactMap { $0 }.joined()
        #expect(text.contains("invalid_grant"))
        #expect(!text.contains("s3cret-c0de"))
        #expect(!text.contains(verifier))
    }

    // MARK: The loopback listener

    @Test func theLoopbackListenerAnswersTheCallbackOnceAndClosesAfter() async throws {
        let seen = Mutex<[Int]>([])
        let agent = OAuth2LoopbackUserAgent { url in
            let redirect = try #require(URL(string: OAuth2ClientTests.parameter("redirect_uri", of: url) ?? ""))
            let page = APIClient(baseURL: redirect.deletingLastPathComponent())
            // A browser's own request first: not the answer.
            let missing = await #expect(throws: APIError.self) {
                try await page.send(APIRequest<Data>.get("/favicon.ico"))
            }
            seen.withLock { $0.append(missing?.status?.code ?? 0) }
            let html = try await page.send(APIRequest<Data>.get("/callback", query: ["code": "c0de", "state": "s t"]))
            #expect(String(decoding: html, as: UTF8.self).contains("Signed in"))
        }
        var redirectURI: URL?
        let callback = try await agent.authorize { uri in
            redirectURI = uri
            return URL(filePath: "/").with(origin: "https://auth.example.com", path: "/authorize")
                .appending(queryItems: [URLQueryItem(name: "redirect_uri", value: uri.absoluteString)])
        }
        let uri = try #require(redirectURI)
        #expect(uri.host == "127.0.0.1" && uri.path == "/callback" && (uri.port ?? 0) > 0)
        #expect(callback.absoluteString == uri.absoluteString + "?code=c0de&state=s%20t")
        #expect(seen.withLock { $0 } == [404])
        // Stopped listening: a second answer finds no one.
        let gone = await #expect(throws: APIError.self) {
            try await APIClient(baseURL: uri.deletingLastPathComponent()).send(APIRequest<Data>.get("/callback"))
        }
        #expect(gone?.kind == .transport, "\(gone?.description ?? "")")
    }

    @Test func theLoopbackListenerTakesOnlyACallbackWithTheSignInsState() async throws {
        let statuses = Mutex<[Int]>([])
        let agent = OAuth2LoopbackUserAgent { url in
            let redirect = try #require(URL(string: OAuth2ClientTests.parameter("redirect_uri", of: url) ?? ""))
            let page = APIClient(baseURL: redirect.deletingLastPathComponent())
            let forged = await #expect(throws: APIError.self) {
                try await page.send(APIRequest<Data>.get("/callback", query: ["code": "evil", "state": "guess"]))
            }
            statuses.withLock { $0.append(forged?.status?.code ?? 0) }
            let state = OAuth2ClientTests.parameter("state", of: url) ?? ""
            _ = try await page.send(APIRequest<Data>.get("/callback", query: ["code": "c0de", "state": state]))
        }
        let callback = try await agent.authorize { uri in
            URL(filePath: "/").with(origin: "https://auth.example.com", path: "/authorize")
                .appending(queryItems: [
                    URLQueryItem(name: "redirect_uri", value: uri.absoluteString),
                    URLQueryItem(name: "state", value: "s-1"),
                ])
        }
        #expect(OAuth2ClientTests.parameter("code", of: callback) == "c0de")
        #expect(statuses.withLock { $0 } == [400])
    }

    @Test func aLoopbackAgentRefusesAnAddressOtherThanLoopback() async throws {
        let agent = OAuth2LoopbackUserAgent(host: "0.0.0.0") { _ in }
        let error = await #expect(throws: APIError.self) { try await agent.authorize { $0 } }
        #expect(error?.description.contains("0.0.0.0 is not a loopback address") == true)
    }

    @Test func theLoopbackListenerGivesUpAfterItsTimeout() async throws {
        let clock = ManualClock()
        let agent = OAuth2LoopbackUserAgent(timeout: .seconds(120), clock: clock) { _ in }
        let waiting = Task { try await agent.authorize { $0 } }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(120))
        let error = await #expect(throws: APIError.self) { try await waiting.value }
        #expect(error?.kind == .timedOut)
        #expect(
            error?.description.contains("no redirect reached http://127.0.0.1:") == true, "\(error?.description ?? "")")
    }

    @Test func aFailureToOpenThePageEndsTheSignIn() async throws {
        struct NoBrowser: Error {}
        let agent = OAuth2LoopbackUserAgent { _ in throw NoBrowser() }
        let oauth = Self.client()
        let error = await #expect(throws: APIError.self) {
            try await oauth.authorizationCode(scope: ["read"], userAgent: agent)
        }
        #expect(error?.kind == .authenticationFailed)
        #expect(
            error?.description.contains("the sign-in step failed: NoBrowser") == true, "\(error?.description ?? "")")
    }

    @Test func cancellingTheSignInStopsListening() async throws {
        let started = Mutex<URL?>(nil)
        let agent = OAuth2LoopbackUserAgent { url in started.withLock { $0 = url } }
        let waiting = Task { try await agent.authorize { $0 } }
        try await eventually("the listener starts") { started.withLock { $0 } != nil }
        waiting.cancel()
        let error = await #expect(throws: APIError.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
        let uri = try #require(started.withLock { $0 })
        let gone = await #expect(throws: APIError.self) {
            try await APIClient(baseURL: uri.deletingLastPathComponent()).send(APIRequest<Data>.get("/callback"))
        }
        #expect(gone?.kind == .transport)
    }
}
