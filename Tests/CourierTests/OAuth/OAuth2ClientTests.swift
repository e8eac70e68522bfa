import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// What `OAuth2Client` sends and how it reads answers no real server gives on demand: unusual secrets, echoed
/// secrets, errors with `200`, token types other than Bearer, redirects, the clock. Against a real server:
/// `OAuth2ServerTests`.
struct OAuth2ClientTests {
    static let tokenURL = URL(filePath: "/").with(origin: "https://auth.example.com", path: "/oauth/token")
    static let revokeURL = URL(filePath: "/").with(origin: "https://auth.example.com", path: "/oauth/revoke")

    static func provider(_ client: OAuth2ClientRegistration) -> OAuth2Provider {
        OAuth2Provider(tokenEndpoint: tokenURL, revocationEndpoint: revokeURL, client: client)
    }

    static func answering(status: HTTPResponse.Status = .ok, json: String) -> MockTransport {
        MockTransport { _ in
            (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), Data(json.utf8))
        }
    }

    static let bearer = #"{"access_token":"at-1","token_type":"Bearer","expires_in":300,"refresh_token":"rt-2"}"#

    /// Form fields of a recorded request's body, decoded.
    static func fields(_ request: MockTransport.RecordedRequest) -> [String: String] {
        let text = String(decoding: request.body, as: UTF8.self)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    @Test func basicAuthenticationFormEncodesTheIdAndSecretBeforeBase64() async throws {
        let transport = Self.answering(json: Self.bearer)
        let client = OAuth2Client(
            provider: Self.provider(.confidential(id: "my app", secret: "a b+c:%/é")), transport: transport)
        _ = try await client.clientCredentials(scope: ["read", "write"])
        let request = try #require(transport.requests.first)
        let expected = Data("my+app:a+b%2Bc%3A%25%2F%C3%A9".utf8).base64EncodedString()
        #expect(request.head.headerFields[.authorization] == "Basic \(expected)")
        #expect(Self.fields(request) == ["grant_type": "client_credentials", "scope": "read write"])
        #expect(request.method == .post)
        #expect(request.head.headerFields[.contentType]?.hasPrefix("application/x-www-form-urlencoded") == true)
    }

    @Test func postAndPublicClientsSendTheirIdInTheBody() async throws {
        let transport = Self.answering(json: Self.bearer)
        let post = OAuth2Client(
            provider: Self.provider(.confidential(id: "svc", secret: "s3cr3t", authentication: .secretPost)),
            transport: transport)
        _ = try await post.clientCredentials()
        let open = OAuth2Client(provider: Self.provider(.public(id: "cli")), transport: transport)
        _ = try await open.refresh(OAuth2Token(accessToken: "old", refreshToken: "rt-1"))
        let requests = transport.requests
        #expect(
            Self.fields(requests[0]) == [
                "grant_type": "client_credentials", "client_id": "svc", "client_secret": "s3cr3t",
            ])
        #expect(requests[0].head.headerFields[.authorization] == nil)
        #expect(
            Self.fields(requests[1]) == ["grant_type": "refresh_token", "refresh_token": "rt-1", "client_id": "cli"])
        #expect(requests[1].head.headerFields[.authorization] == nil)
    }

    @Test func aRefusedRefreshSaysSoOnceAndHidesWhatTheServerEchoed() async throws {
        let echo =
            #"{"error":"invalid_grant","error_description":"refresh token rt-secret-1 of svc/s3cr3t is revoked"}"#
        let client = OAuth2Client(
            provider: Self.provider(.confidential(id: "svc", secret: "s3cr3t")),
            transport: Self.answering(status: .badRequest, json: echo))
        let error = await #expect(throws: APIError.self) {
            try await client.refresh(OAuth2Token(accessToken: "a", refreshToken: "rt-secret-1"))
        }
        let text = error?.description ?? ""
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "invalid_grant")
        #expect(text.contains("POST https://auth.example.com/oauth/token failed: 400"), "\(text)")
        #expect(text.contains("OAuth 2.0 refresh failed: invalid_grant"), "\(text)")
        #expect(text.components(separatedBy: "invalid_grant").count == 2, "said once: \(text)")
        for secret in ["rt-secret-1", "s3cr3t"] {
            #expect(!text.contains(secret), "\(text)")
            #expect(error?.bodySnippet?.contains(secret) != true)
            #expect(error.flatMap(\.body).map { String(decoding: $0, as: UTF8.self).contains(secret) } != true)
        }
    }

    @Test func anErrorAnsweredWith200IsTheErrorNotAMissingToken() async throws {
        let client = OAuth2Client(
            provider: Self.provider(.public(id: "cli")),
            transport: Self.answering(json: #"{"error":"bad_verification_code","error_description":"expired"}"#))
        let error = await #expect(throws: APIError.self) { try await client.clientCredentials() }
        #expect(error?.kind == .rejected)
        #expect(error?.description.contains("bad_verification_code (expired)") == true, "\(error?.description ?? "")")
    }

    @Test func aTokenOfAnotherTypeIsRefused() async throws {
        let client = OAuth2Client(
            provider: Self.provider(.public(id: "cli")),
            transport: Self.answering(json: #"{"access_token":"at","token_type":"DPoP","expires_in":60}"#))
        let error = await #expect(throws: APIError.self) { try await client.clientCredentials() }
        #expect(error?.kind == .rejected)
        #expect(error?.description.contains("DPoP") == true)
        #expect(error?.description.contains("\"at\"") != true)
    }

    @Test func expiryCountsFromTheClockAndScopeDefaultsToWhatWasAsked() async throws {
        let clock = ManualClock()
        let client = OAuth2Client(
            provider: Self.provider(.public(id: "cli")),
            transport: Self.answering(json: #"{"access_token":"at","token_type":"bearer","expires_in":"300"}"#),
            clock: clock)
        clock.advance(by: .seconds(1000))
        let token = try await client.clientCredentials(scope: ["read"])
        let expiresIn = try #require(token.expiresAt).timeIntervalSinceNow
        #expect((1290...1310).contains(expiresIn), "1,000 s on the clock + expires_in 300: \(expiresIn)")
        #expect(token.scope == ["read"])
        #expect(token.refreshToken == nil)
    }

    @Test func aRedirectFromTheTokenEndpointIsNotFollowed() async throws {
        let transport = MockTransport { request in
            if request.baseURL.host == "evil.example.com" { return (HTTPResponse(status: .ok), Data(Self.bearer.utf8)) }
            return (
                HTTPResponse(status: .temporaryRedirect, headerFields: [.location: "https://evil.example.com/t"]),
                Data()
            )
        }
        let client = OAuth2Client(
            provider: Self.provider(.confidential(id: "svc", secret: "s3cr3t", authentication: .secretPost)),
            transport: transport)
        await #expect(throws: APIError.self) { try await client.clientCredentials() }
        #expect(transport.requests.count == 1, "the body with the secret went nowhere else")
    }

    @Test(arguments: [
        ("https://auth.example.com", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"),
        ("https://auth.example.com/", "/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"),
        (
            "https://auth.example.com/tenant/a", "/.well-known/oauth-authorization-server/tenant/a",
            "/tenant/a/.well-known/openid-configuration"
        ),
    ])
    func discoveryLooksWhereEachSpecSays(issuer: String, oauthPath: String, oidcPath: String) async throws {
        let issuerURL = try #require(URL(string: issuer))
        let named = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        let document = #"{"issuer":"\#(named)","token_endpoint":"https://auth.example.com/token"}"#
        let transport = MockTransport(stubs: [
            .init(.get, oauthPath, json: document), .init(.get, oidcPath, status: .notFound, json: "{}"),
        ])
        let provider = try await OAuth2Provider.discover(
            issuer: issuerURL, client: .public(id: "cli"), transport: transport)
        #expect(provider.tokenEndpoint.absoluteString == "https://auth.example.com/token")
        #expect(Set(transport.requests.map(\.path)) == [oauthPath, oidcPath])
    }

    @Test func discoveryWithNeitherDocumentNamesBoth() async throws {
        let transport = MockTransport(stubs: [])
        let error = await #expect(throws: APIError.self) {
            try await OAuth2Provider.discover(
                issuer: URL(filePath: "/").with(origin: "https://auth.example.com", path: "/o"),
                client: .public(id: "cli"),
                transport: transport)
        }
        let text = error?.description ?? ""
        #expect(text.contains("oauth-authorization-server/o"), "\(text)")
        #expect(text.contains("/o/.well-known/openid-configuration"), "\(text)")
    }

    @Test func noSecretIsNotTheDefaultOfAnOptional() {
        let registration = OAuth2ClientRegistration(id: "cli", secret: "s", authentication: .noSecret)
        #expect(registration.authentication == .noSecret)
        #expect(OAuth2ClientRegistration(id: "cli", secret: "s").authentication == .secretBasic)
        #expect(!String(reflecting: registration).contains("\"s\""))
    }
}

extension URL {
    /// `origin` + `path` as a URL (tests' fixed, known-good addresses, without a force unwrap).
    func with(origin: String, path: String) -> URL { URL(string: origin + path) ?? self }
}

extension OAuth2ClientTests {
    /// The first value of the query parameter `name` of `url`, decoded.
    static func parameter(_ name: String, of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}

/// A token exchange recorded in a cassette: with ``Redaction/oauth2``, neither what was sent (client secret,
/// refresh token, code, PKCE verifier) nor what came back (access, refresh and ID tokens) is written down.
struct OAuth2CassetteTests {
    @Test func aRecordedTokenExchangeHoldsNoSecret() async throws {
        let folder = CassetteTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let issued = #"""
            {"access_token":"at-Issued/1","token_type":"Bearer","expires_in":300,"refresh_token":"rt-Issued+2",
            "id_token":"eyJhbGciOi.id-Issued.sig3"}
            """#
        let server = MockTransport { _ in
            (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(issued.utf8))
        }
        let secret = "cs-Secret/10 y"
        try await withCassette(
            "oauth", in: folder, mode: .record, recordingThrough: server, redaction: .oauth2, secrets: [secret]
        ) { cassette in
            let provider = OAuth2ClientTests.provider(.confidential(id: "app", secret: secret))
            let oauth = OAuth2Client(provider: provider, transport: cassette)
            let token = try await oauth.refresh(OAuth2Token(accessToken: "at-Old/0", refreshToken: "rt-Old+0"))
            #expect(token.accessToken == "at-Issued/1")
        }
        let text = try String(contentsOf: folder.appending(path: "oauth.har"), encoding: .utf8)
        for leaked in ["at-Issued", "rt-Issued", "id-Issued", "rt-Old", "cs-Secret", "cs-Secret%2F10"]
        where text.contains(leaked) {
            Issue.record("\(leaked) is in the cassette: \(text)")
        }
        #expect(text.contains("grant_type=refresh_token"), "the exchange was recorded: \(text)")
    }
}
