import Courier
import Foundation
import HTTPTypes
import Testing

/// No secret a request carried reaches a message, in any spelling: every credential kind × every failure
/// kind × every place an error or a log line shows up, on every transport.
@Suite(.timeLimit(.minutes(1))) struct SecretLeakTests {
    /// One way of carrying a credential, and the secret it carries.
    enum Credential: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case bearer, basic, headerKey, queryKey, cookie, oauth2

        static let token = "tok/en+Bearer=="
        static let password = "pa ss/wörd+1"
        static let headerSecret = "hk-Secret/42 x"
        static let querySecret = "qk Secret+/7"
        static let cookieValue = "ck-Secret/9"
        static let oauthAccess = "oa-Access/7 x"
        static let oauthRefresh = "oa-Refresh+8="
        static let oauthID = "oa-ID.token/9"
        static let clientSecret = "cs-Secret/10 y"

        var testDescription: String { rawValue }

        /// Adds the credential; `server` is the test server, whose echo is the OAuth token endpoint: a refresh
        /// after a `401` posts the refresh token and client secret there, and the answer quotes them.
        func apply(
            to middlewares: inout [any ClientMiddleware], _ configuration: inout APIClient.Configuration,
            server: URL, transport: any ClientTransport
        ) {
            switch self {
            case .oauth2:
                let endpoint = URL(string: server.absoluteString + "/echo/leak?echo_status=400") ?? server
                let provider = OAuth2Provider(
                    tokenEndpoint: endpoint, client: .confidential(id: "app", secret: Self.clientSecret))
                let token = OAuth2Token(
                    accessToken: Self.oauthAccess, expiresAt: Date().addingTimeInterval(3600),
                    refreshToken: Self.oauthRefresh, idToken: Self.oauthID)
                let session = OAuth2Session(
                    client: OAuth2Client(provider: provider, transport: transport),
                    storage: InMemoryOAuth2TokenStorage(token))
                middlewares.append(.oauth2(session))
            case .bearer: middlewares.append(.bearerToken(Self.token))
            case .basic: middlewares.append(.basicAuth(username: "ada", password: Self.password))
            case .headerKey:
                middlewares.append(.apiKey(Self.headerSecret, header: .xAPIKey))
            case .queryKey: middlewares.append(.apiKey(Self.querySecret, queryItem: "api_key"))
            case .cookie: configuration.defaultHeaders[.cookie] = "sid=\(Self.cookieValue)"
            }
        }

        /// Every spelling of the secret that must not appear: as is, JSON-escaped, percent-encoded for a query
        /// and for a form (either case of hex digit, and all in lower case), and base64 (`Basic`).
        var spellings: [String] {
            let secrets: [String]
            var extra: [String] = []
            switch self {
            case .bearer: secrets = [Self.token]
            case .basic:
                secrets = [Self.password]
                extra = [Data("ada:\(Self.password)".utf8).base64EncodedString()]
            case .headerKey: secrets = [Self.headerSecret]
            case .queryKey: secrets = [Self.querySecret]
            case .cookie: secrets = [Self.cookieValue]
            case .oauth2:
                secrets = [Self.oauthAccess, Self.oauthRefresh, Self.oauthID, Self.clientSecret]
                // HTTP Basic at the token endpoint: the id and secret form-encoded, then base64 (RFC 6749 §2.3.1).
                extra = [Data("app:cs-Secret%2F10+y".utf8).base64EncodedString()]
            }
            return secrets.flatMap { secret in
                let json = secret.replacingOccurrences(of: "/", with: "\\/")
                let encoded = ASCIIPercentEncoding.spellings(of: secret)
                return [secret, json] + encoded + [ASCIIPercentEncoding.encode(secret).lowercased()]
            } + extra
        }
    }

    /// How the request fails.
    enum Failure: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case unauthorizedEcho, decodingEcho, timeout, connectionRefused, redirectChain, redirectedEcho
        /// A TLS handshake refused (the catalogue's expired certificate), when the TLS catalogue is there.
        case tlsRefused
        var testDescription: String { rawValue }
    }

    struct Mismatch: Decodable, Sendable { let expected: [Int] }

    @Test(arguments: TransportUnderTest.allWithTLS, Credential.allCases)
    func noSecretReachesAnyMessage(transport: TransportUnderTest, credential: Credential) async throws {
        for failure in Failure.allCases where failure != .tlsRefused || TLSCatalogue.current != nil {
            let (logger, store) = RecordingLogHandler.logger()
            var middlewares: [any ClientMiddleware] = [.logging(logger, logsCURL: true)]
            var configuration = APIClient.Configuration()
            let demo = try await transport.testServerURL()
            let sender = transport.make()
            credential.apply(to: &middlewares, &configuration, server: demo, transport: sender)
            let base =
                switch failure {
                case .connectionRefused: try #require(URL(string: "http://127.0.0.1:1"))
                case .tlsRefused: try TLSCatalogue.required().url("expired")
                default: demo
                }
            let client = APIClient(baseURL: base, transport: sender, middlewares: middlewares) {
                $0 = configuration
                if failure == .timeout { $0.timeout = .milliseconds(200) }
            }
            let request: APIRequest<Mismatch> =
                switch failure {
                case .unauthorizedEcho: .get("/echo/leak", query: ["echo_status": 401])
                case .decodingEcho: .get("/echo/leak")
                case .timeout: .get("/slow", query: ["ms": 2000])
                case .connectionRefused, .tlsRefused: .get("/anything")
                case .redirectChain: .get("/redirect/count/12")
                case .redirectedEcho: .get("/redirect/to", query: ["url": "/echo/leak?echo_status=401"])
                }
            let error = await #expect(throws: APIError.self, "\(failure)") { try await client.send(request) }
            let error2 = try #require(error)
            var dumped = ""
            dump(error2, to: &dumped)
            let places: [(String, String)] = [
                ("description", error2.description), ("localizedDescription", error2.localizedDescription),
                ("String(reflecting:)", String(reflecting: error2)), ("dump", dumped),
                ("underlyingError", error2.underlyingError.map { String(reflecting: $0) } ?? ""),
                ("body", error2.body.map { String(decoding: $0, as: UTF8.self) } ?? ""),
                ("logs", store.text), ("cURL", try await client.cURLDescription(for: request)),
            ]
            // A failed token refresh: the refresh's own error, whose body is the token endpoint's answer.
            let refresh = error2.underlyingError as? APIError
            let refreshPlaces = [
                ("refresh error body", refresh?.body.map { String(decoding: $0, as: UTF8.self) } ?? ""),
                ("refresh error snippet", refresh?.bodySnippet ?? ""),
            ]
            for (place, text) in places + refreshPlaces {
                for spelling in credential.spellings where text.contains(spelling) {
                    Issue.record("\(credential) leaked as \"\(spelling)\" in \(place) after \(failure): \(text)")
                }
            }
            if failure == .unauthorizedEcho || failure == .decodingEcho {
                // The control: the echo quoted the credential, and what the error kept shows it redacted. After
                // a 401 with OAuth, the echo that quoted the refresh is the token endpoint's, in the refresh's error.
                let echoed = credential == .oauth2 && failure == .unauthorizedEcho ? refresh : error2
                let body = echoed?.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
                #expect(body.contains("/echo/leak"), "the echo reached the error")
                #expect(body.contains("<redacted>"), "\(failure): \(body)")
            }
        }
    }
}
