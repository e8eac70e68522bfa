import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The device authorization grant (RFC 8628) against django-oauth-toolkit: the test plays the user on another
/// device, signed in, entering the code; polls wait on a `ManualClock`.
@Suite(.enabled(if: OAuthCatalogue.available), .timeLimit(.minutes(2)))
struct OAuth2DeviceGrantServerTests {
    /// A grant under way, and what it showed.
    struct Started {
        let grant: Task<OAuth2Token, any Error>
        let shown: OAuth2DeviceAuthorization
        let clock: ManualClock
        let browser: TestBrowser
    }

    static func start(_ catalogue: OAuthCatalogue) async throws -> Started {
        var provider = try await OAuth2Provider.discover(
            issuer: catalogue.issuerURL, client: catalogue.registration("device"))
        // Its metadata lists the grant type but not the endpoint (django-oauth-toolkit 3.4.1).
        #expect(provider.deviceAuthorizationEndpoint == nil)
        provider.deviceAuthorizationEndpoint = URL(string: "\(catalogue.base_url)/o/device-authorization/")
        let clock = ManualClock()
        let oauth = OAuth2Client(provider: provider, clock: clock)
        let (codes, shown) = AsyncStream<OAuth2DeviceAuthorization>.makeStream()
        let grant = Task {
            defer { shown.finish() }
            return try await oauth.deviceAuthorization(scope: ["read"]) { shown.yield($0) }
        }
        var iterator = codes.makeAsyncIterator()
        guard let authorization = await iterator.next() else {
            _ = try await grant.value  // its error
            throw CancellationError()
        }
        return Started(
            grant: grant, shown: authorization, clock: clock, browser: try await TestBrowser.signedIn(to: catalogue))
    }

    @Test func theGrantPollsUntilTheUserApproves() async throws {
        let catalogue = try OAuthCatalogue.required()
        let started = try await Self.start(catalogue)
        #expect(started.shown.verificationURI?.absoluteString == "\(catalogue.base_url)/o/device/")
        #expect(started.shown.interval == .seconds(5))
        #expect(started.shown.description == "Enter \(started.shown.userCode) at \(catalogue.base_url)/o/device/")
        // A poll while the user has not decided: authorization_pending, and the grant waits again.
        await started.clock.waitForSleepers()
        started.clock.advance(by: .seconds(5))
        await started.clock.waitForSleepers()
        try await started.browser.decide(userCode: started.shown.userCode, accept: true)
        started.clock.advance(by: .seconds(5))
        let token = try await started.grant.value
        let me = try await APIClient(baseURL: catalogue.baseURL).send(OAuth2ServerTests.GetMe(token: token))
        #expect(me.user == catalogue.user.username)
        #expect(me.client == (try catalogue.registration("device").id))
    }

    @Test func aDeclinedDeviceIsTheServersAccessDenied() async throws {
        let catalogue = try OAuthCatalogue.required()
        let started = try await Self.start(catalogue)
        try await started.browser.decide(userCode: started.shown.userCode, accept: false)
        await started.clock.waitForSleepers()
        started.clock.advance(by: .seconds(5))
        let error = await #expect(throws: APIError.self) { try await started.grant.value }
        #expect(
            error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "access_denied", "\(String(describing: error))")
        #expect(error?.description.contains("device authorization grant failed") == true)
    }
}

/// The device grant's polling rules on a mock server: `slow_down`, expiry, cancellation, the device code kept
/// out of errors.
struct OAuth2DeviceGrantTests {
    static let deviceURL = URL(string: "https://auth.example.com/oauth/device") ?? URL(filePath: "/")

    /// A server that answers the device authorization, then each poll with the next of `polls` (an error code,
    /// or `nil` for a token).
    static func server(polls: [String?], expiresIn: Int = 600) -> MockTransport {
        let next = Atomic<Int>(0)
        return MockTransport { request in
            let json: String
            var status = HTTPResponse.Status.ok
            if request.head.path == "/oauth/device" {
                json = #"""
                    {"device_code":"dc-secret","user_code":"WDJB-MJHT","verification_uri":"https://auth.example.com/device",
                    "expires_in":\#(expiresIn),"interval":5}
                    """#
            } else {
                let index = next.add(1, ordering: .relaxed).newValue - 1
                if index < polls.count, let error = polls[index] {
                    status = .badRequest
                    json = #"{"error":"\#(error)","error_description":"echo dc-secret"}"#
                } else {
                    json = OAuth2ClientTests.bearer
                }
            }
            return (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), Data(json.utf8))
        }
    }

    static func client(_ transport: MockTransport, clock: ManualClock) -> OAuth2Client {
        var provider = OAuth2ClientTests.provider(.public(id: "tv"))
        provider.deviceAuthorizationEndpoint = deviceURL
        return OAuth2Client(provider: provider, transport: transport, clock: clock)
    }

    /// The number of polls sent so far.
    static func polls(_ transport: MockTransport) -> Int {
        transport.requests.filter { OAuth2ClientTests.fields($0)["grant_type"]?.hasSuffix("device_code") == true }.count
    }

    @Test func slowDownAddsFiveSecondsToEveryLaterWait() async throws {
        let clock = ManualClock()
        let server = Self.server(polls: ["authorization_pending", "slow_down", "authorization_pending"])
        let oauth = Self.client(server, clock: clock)
        let grant = Task { try await oauth.deviceAuthorization(scope: []) { _ in } }
        for (advance, expected) in [(5, 1), (5, 2), (5, 2), (5, 3), (10, 4)] {
            await clock.waitForSleepers()
            clock.advance(by: .seconds(advance))
            try await eventually("poll \(expected)") { Self.polls(server) >= expected }
        }
        let token = try await grant.value
        #expect(token.accessToken == "at-1")
        #expect(Self.polls(server) == 4)
        let poll = try #require(server.requests.last)
        #expect(OAuth2ClientTests.fields(poll)["device_code"] == "dc-secret")
        #expect(OAuth2ClientTests.fields(poll)["client_id"] == "tv")
    }

    @Test func codesThatExpireEndTheGrant() async throws {
        let clock = ManualClock()
        let server = Self.server(polls: Array(repeating: "authorization_pending", count: 10), expiresIn: 12)
        let grant = Task { try await Self.client(server, clock: clock).deviceAuthorization(scope: []) { _ in } }
        for _ in 0..<3 {
            await clock.waitForSleepers()
            clock.advance(by: .seconds(5))
        }
        let error = await #expect(throws: APIError.self) { try await grant.value }
        #expect(error?.kind == .timedOut)
        #expect(
            error?.description.contains("did not approve within 12.0 seconds") == true, "\(error?.description ?? "")")
        #expect(Self.polls(server) == 2)
    }

    @Test func theDeviceCodeNeverShowsInAFailure() async throws {
        let clock = ManualClock()
        let server = Self.server(polls: ["expired_token"])
        let shown = Mutex<OAuth2DeviceAuthorization?>(nil)
        let grant = Task {
            try await Self.client(server, clock: clock).deviceAuthorization(scope: []) { code in
                shown.withLock { $0 = code }
            }
        }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(5))
        let error = await #expect(throws: APIError.self) { try await grant.value }
        #expect(error?.errorBody(as: OAuth2ErrorResponse.self)?.error == "expired_token")
        let text = [error?.description, error?.bodySnippet].compactMap { $0 }.joined()
        #expect(!text.contains("dc-secret"), "\(text)")
        let code = try #require(shown.withLock { $0 })
        #expect(!String(reflecting: code).contains("dc-secret"))
        #expect(code.verificationURI?.absoluteString == "https://auth.example.com/device")
    }

    @Test func cancellingStopsPolling() async throws {
        let clock = ManualClock()
        let server = Self.server(polls: [])
        let grant = Task { try await Self.client(server, clock: clock).deviceAuthorization(scope: []) { _ in } }
        await clock.waitForSleepers()
        grant.cancel()
        let error = await #expect(throws: APIError.self) { try await grant.value }
        #expect(error?.kind == .cancelled)
        #expect(Self.polls(server) == 0)
    }
}
