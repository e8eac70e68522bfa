import Courier
import CourierTesting
import Crypto
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// `OAuth2Session`'s choices on a mock token endpoint (a stored token used without a request, rotation saved,
/// a token that cannot be saved kept), the token storages, and `WWW-Authenticate` parsing. Against a real
/// server: `OAuth2SessionServerTests`.
struct OAuth2SessionTests {
    static let api = URL(filePath: "/").with(origin: "https://api.example.com", path: "")

    /// A token endpoint that rotates: each refresh answers `at-N` / `rt-N`, N counting from 1.
    static func rotating() -> MockTransport { MockTransport(rotatingAnswers()) }

    /// What ``rotating()`` answers.
    static func rotatingAnswers() -> MockTransport.Handler {
        let count = Atomic<Int>(0)
        return { _ in
            let n = count.add(1, ordering: .relaxed).newValue
            let json =
                #"{"access_token":"at-\#(n)","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-\#(n)"}"#
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), Data(json.utf8))
        }
    }

    /// An API that answers `200` with the bearer token it was sent, or `401` for `rejected`.
    static func resource(rejecting rejected: Set<String> = []) -> MockTransport {
        MockTransport(resourceAnswers(rejecting: rejected))
    }

    /// What ``resource(rejecting:)`` answers.
    static func resourceAnswers(rejecting rejected: Set<String> = []) -> MockTransport.Handler {
        { request in
            let token = request.head.headerFields[.authorization]?.replacingOccurrences(of: "Bearer ", with: "") ?? ""
            guard !rejected.contains(token) else {
                return (
                    HTTPResponse(
                        status: .unauthorized, headerFields: [.wwwAuthenticate: #"Bearer error="invalid_token""#]),
                    Data()
                )
            }
            return (HTTPResponse(status: .ok), Data(token.utf8))
        }
    }

    static func session(_ transport: MockTransport, storage: any OAuth2TokenStorage, clock: ManualClock = ManualClock())
        -> OAuth2Session
    {
        OAuth2Session(
            client: OAuth2Client(
                provider: OAuth2ClientTests.provider(.public(id: "cli")), transport: transport, clock: clock),
            storage: storage)
    }

    @Test func aStoredTokenThatIsStillValidIsUsedWithoutARequest() async throws {
        let tokens = Self.rotating()
        let stored = OAuth2Token(accessToken: "at-0", expiresAt: Date().addingTimeInterval(3600), refreshToken: "rt-0")
        let session = Self.session(tokens, storage: InMemoryOAuth2TokenStorage(stored))
        let api = APIClient(baseURL: Self.api, transport: Self.resource(), middlewares: [.oauth2(session)])
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-0")
        #expect(tokens.requests.isEmpty)
    }

    @Test func aRotatedTokenIsSavedBeforeItIsUsed() async throws {
        let tokens = Self.rotating()
        let storage = InMemoryOAuth2TokenStorage(OAuth2Token(accessToken: "at-0", refreshToken: "rt-0"))
        let session = Self.session(tokens, storage: storage)
        let resource = Self.resourceAnswers(rejecting: ["at-0"])
        let savedWhenSent = Mutex<[String?]>([])
        let api = APIClient(
            baseURL: Self.api,
            transport: MockTransport { request in
                savedWhenSent.withLock { $0.append(storage.load()?.accessToken) }
                return try await resource(request)
            }, middlewares: [.oauth2(session)])
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-1")
        #expect(savedWhenSent.withLock { $0 } == ["at-0", "at-1"], "at-1 was saved before it was sent")
        #expect(storage.load()?.refreshToken == "rt-1")
        #expect(OAuth2ClientTests.fields(try #require(tokens.requests.first))["refresh_token"] == "rt-0")
    }

    @Test func aTokenIsRefreshedOnTheClientsClockBeforeItExpires() async throws {
        let clock = ManualClock()
        let tokens = Self.rotating()
        let storage = InMemoryOAuth2TokenStorage()
        let session = Self.session(tokens, storage: storage, clock: clock)
        try await session.signIn(
            OAuth2Token(accessToken: "at-0", expiresAt: Date().addingTimeInterval(600), refreshToken: "rt-0"))
        let api = APIClient(baseURL: Self.api, transport: Self.resource(), middlewares: [.oauth2(session)])
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-0")
        clock.advance(by: .seconds(541))  // within the minute of leeway
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-1")
        #expect(tokens.requests.count == 1)
    }

    @Test func aTokenThatCannotBeSavedIsKeptInMemoryAndTheFailureReported() async throws {
        struct ReadOnly: OAuth2TokenStorage {
            struct Full: Error {}
            func load() -> OAuth2Token? { OAuth2Token(accessToken: "at-0", refreshToken: "rt-0") }
            func save(_ token: OAuth2Token) throws { throw Full() }
            func remove() {}
        }
        let tokens = Self.rotating()
        let clock = ManualClock()
        let session = Self.session(tokens, storage: ReadOnly(), clock: clock)
        let api = APIClient(
            baseURL: Self.api, transport: Self.resource(rejecting: ["at-0"]), middlewares: [.oauth2(session)])
        let error = await #expect(throws: APIError.self) { try await api.send(APIRequest<String>.get("/me")) }
        #expect(
            error?.description.contains("the refreshed token could not be saved: Full") == true,
            "\(error?.description ?? "")")
        // The refreshed token is not lost: the next try uses it without another token request.
        clock.advance(by: .seconds(5))
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-1")
        #expect(tokens.requests.count == 1)
    }

    @Test func nobodySignedInIsSignInRequiredWithoutARequest() async throws {
        let tokens = Self.rotating()
        let session = Self.session(tokens, storage: InMemoryOAuth2TokenStorage())
        let api = APIClient(baseURL: Self.api, transport: Self.resource(), middlewares: [.oauth2(session)])
        let error = await #expect(throws: APIError.self) { try await api.send(APIRequest<String>.get("/me")) }
        #expect(error?.kind == .signInRequired)
        #expect(error?.description.contains("no one is signed in") == true, "\(error?.description ?? "")")
        #expect(tokens.requests.isEmpty)
    }

    @Test func theTokenGoesOnlyToTheAPIsOrigins() async throws {
        let resource = Self.resource()
        let stored = OAuth2Token(accessToken: "at-0", expiresAt: Date().addingTimeInterval(3600))
        let session = Self.session(Self.rotating(), storage: InMemoryOAuth2TokenStorage(stored))
        let elsewhere = URL(filePath: "/").with(origin: "https://cdn.example.com", path: "/file")
        let api = APIClient(baseURL: Self.api, transport: resource, middlewares: [.oauth2(session)]) {
            $0.allowedOrigins = Set([Origin(elsewhere)].compactMap { $0 })
        }
        _ = try await api.send(APIRequest<String>.get(.url(elsewhere)))
        #expect(resource.requests.first?.head.headerFields[.authorization] == nil)
    }

    @Test func aSessionNobodyHoldsStillServesItsClient() async throws {
        let stored = OAuth2Token(accessToken: "at-0", expiresAt: Date().addingTimeInterval(3600), refreshToken: "rt-0")
        let api = APIClient(
            baseURL: Self.api, transport: Self.resource(rejecting: ["at-0"]),
            middlewares: [.oauth2(Self.session(Self.rotating(), storage: InMemoryOAuth2TokenStorage(stored)))])
        #expect(try await api.send(APIRequest<String>.get("/me")) == "at-1")
    }

    @Test func a401ForAMissingScopeIsNotRefreshed() async throws {
        let tokens = Self.rotating()
        let stored = OAuth2Token(accessToken: "at-0", expiresAt: Date().addingTimeInterval(3600), refreshToken: "rt-0")
        let session = Self.session(tokens, storage: InMemoryOAuth2TokenStorage(stored))
        let challenge = #"Bearer error="insufficient_scope", error_description="needs write", scope="write""#
        let resource = MockTransport { _ in
            (HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: challenge]), Data())
        }
        let api = APIClient(baseURL: Self.api, transport: resource, middlewares: [.oauth2(session)])
        let error = await #expect(throws: APIError.self) { try await api.send(APIRequest<String>.get("/me")) }
        #expect(error?.description.contains("WWW-Authenticate: Bearer insufficient_scope (needs write)") == true)
        #expect(tokens.requests.isEmpty)
        #expect(resource.requests.count == 1)
    }

    @Test func signingOutDuringARefreshKeepsNothingItObtains() async throws {
        let (gate, opening) = AsyncStream<Void>.makeStream()
        let rotating = Self.rotatingAnswers()
        let tokens = MockTransport { request in
            if request.head.path == "/oauth/token" {
                var waiting = gate.makeAsyncIterator()
                _ = await waiting.next()
            }
            return try await rotating(request)
        }
        let storage = InMemoryOAuth2TokenStorage(OAuth2Token(accessToken: "at-0", refreshToken: "rt-0"))
        let session = Self.session(tokens, storage: storage)
        let api = APIClient(
            baseURL: Self.api, transport: Self.resource(rejecting: ["at-0"]), middlewares: [.oauth2(session)])
        let call = Task { try await api.send(APIRequest<String>.get("/me")) }
        try await eventually("the refresh is sent") { !tokens.requests.isEmpty }
        try await session.signOut(revoking: false)
        opening.yield()
        let error = await #expect(throws: APIError.self) { try await call.value }
        #expect(error?.kind == .signInRequired, "\(error?.description ?? "")")
        #expect(storage.load() == nil)
        // The token the refresh obtained is revoked, not kept.
        try await eventually("the orphan token is revoked") {
            tokens.requests.contains { OAuth2ClientTests.fields($0)["token"] == "rt-1" }
        }
        #expect(try await session.token() == nil)
    }

    // MARK: Storage

    @Test func theEncryptedFileKeepsTheTokenUnreadableToOthers() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tokens")
        let key = SymmetricKey(size: .bits256)
        let storage = try EncryptedFileOAuth2TokenStorage(file: file, key: key)
        #expect(try storage.load() == nil)
        let token = OAuth2Token(
            accessToken: "at-secret", expiresAt: Date(timeIntervalSince1970: 1_900_000_000), refreshToken: "rt-secret",
            scope: ["read"], idToken: "id-secret")
        try storage.save(token)
        #expect(try storage.load() == token)
        let bytes = try Data(contentsOf: file)
        #expect(bytes.range(of: Data("secret".utf8)) == nil)
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["tokens"], "no temporary left")

        let wrongKey = try EncryptedFileOAuth2TokenStorage(file: file, key: SymmetricKey(size: .bits256))
        let error = #expect(throws: APIError.self) { try wrongKey.load() }
        #expect(error?.kind == .fileAccess)
        #expect(error?.description.contains("could not be decrypted") == true, "\(error?.description ?? "")")
        var changed = bytes
        changed[changed.count / 2] ^= 1
        try changed.write(to: file)
        #expect(throws: APIError.self) { try storage.load() }
        try storage.remove()
        #expect(try storage.load() == nil)
        try storage.remove()  // nothing to remove is not an error
        #expect(throws: APIError.self) {
            try EncryptedFileOAuth2TokenStorage(file: file, key: SymmetricKey(size: .bits128))
        }
    }

    // MARK: WWW-Authenticate

    @Test(arguments: [
        (
            #"Bearer realm="example", error="invalid_token", error_description="The access token expired""#,
            [
                AuthenticationChallenge(
                    scheme: "Bearer",
                    parameters: [
                        "realm": "example", "error": "invalid_token", "error_description": "The access token expired",
                    ])
            ]
        ),
        (
            #"Basic realm="simple", Newauth realm="apps", type=1, title="Login to \"apps\"""#,
            [
                AuthenticationChallenge(scheme: "basic", parameters: ["realm": "simple"]),
                AuthenticationChallenge(
                    scheme: "newauth", parameters: ["realm": "apps", "type": "1", "title": #"Login to "apps""#]),
            ]
        ),
        (
            "Negotiate abc+/12==, Bearer",
            [
                AuthenticationChallenge(scheme: "negotiate", token68: "abc+/12=="),
                AuthenticationChallenge(scheme: "bearer"),
            ]
        ),
        (
            #"Bearer error = "insufficient_scope" ,scope="a b""#,
            [
                AuthenticationChallenge(scheme: "bearer", parameters: ["error": "insufficient_scope", "scope": "a b"])
            ]
        ),
        (#"Bearer realm="unclosed"#, [AuthenticationChallenge(scheme: "bearer")]),
    ])
    func challengesAreReadAsRFC9110WritesThem(field: String, expected: [AuthenticationChallenge]) {
        #expect(AuthenticationChallenge.challenges(in: [.wwwAuthenticate: field]) == expected)
    }

    @Test func aChallengeDescribesItsErrorButNeverItsToken() {
        let bearer = AuthenticationChallenge(
            scheme: "Bearer", parameters: ["error": "invalid_token", "error_description": "expired"])
        #expect(bearer.description == "Bearer invalid_token (expired)")
        #expect(AuthenticationChallenge(scheme: "negotiate", token68: "s3cret").description == "Negotiate")
    }
}
