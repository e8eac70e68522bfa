import Courier
import Foundation
import Testing

/// Courier over TLS against real servers (nginx and hypercorn, `scripts/servers/tls_servers.py`) with
/// certificates made for the run: trusting a private CA, and the failure catalogue, on every transport Courier
/// ships, each failure a ``TLSFailure`` whose message says which check failed.
@Suite(.enabled(if: TLSCatalogue.available), .timeLimit(.minutes(2)))
struct TLSServerTests {
    /// What the catalogue's nginx answers.
    struct Echo: Decodable, Sendable, Equatable {
        let server: String
        let `protocol`: String
        let path: String
    }

    /// GET `/tls/NAME?marker=MARKER` from the server named `name`; the marker finds the request in the
    /// server's log.
    static func fetch(_ name: String, marker: String = "", over transport: any ClientTransport) async throws -> Echo {
        let client = APIClient(baseURL: try TLSCatalogue.required().url(name), transport: transport)
        return try await client.send(APIRequest<Echo>.get("/tls/\(name)", query: ["marker": marker]))
    }

    static func privateCA(minimumVersion: TLSSettings.Version = .tls12) throws -> TLSSettings {
        TLSSettings(trust: .only(try TLSCatalogue.required().rootCA()), minimumVersion: minimumVersion)
    }

    @Test func aServerOfAPrivateCAIsTrustedWithItsRootOnly() async throws {
        let client = APIClient(
            baseURL: try TLSCatalogue.required().url("good"), transport: try HTTPClientTransport(tls: Self.privateCA()))
        let response = try await client.response(APIRequest<Echo>.get("/tls/good"))
        #expect(response.value == Echo(server: "good", protocol: "HTTP/1.1", path: "/tls/good"))
        #expect(response.httpProtocol == .http1_1, "this server offers no HTTP/2")
    }

    @Test func aServerOfAPrivateCAIsTrustedWithItsRootBesideTheSystems() async throws {
        let tls = TLSSettings(trust: .systemAnd(try TLSCatalogue.required().rootCA()))
        let echo = try await Self.fetch("good", over: HTTPClientTransport(tls: tls))
        #expect(echo.server == "good")
    }

    @Test func theSystemsRootsAloneDoNotTrustAPrivateCA() async throws {
        let error = await #expect(throws: APIError.self) {
            try await Self.fetch("good", over: HTTPClientTransport(tls: .default))
        }
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == .untrustedRoot, "\(String(describing: error))")
    }

    /// One server per way a TLS connection fails, and the reason each transport gives.
    struct FailureCase: Sendable, CustomTestStringConvertible {
        let server: String
        let minimumVersion: TLSSettings.Version
        /// The reason over ``HTTPClientTransport`` trusting the test CA.
        let httpClient: TLSFailure.Reason
        /// The reason over URLSession on Linux, which trusts only the system's roots (so never the test CA):
        /// libcurl reports the first problem OpenSSL met.
        let urlSession: TLSFailure.Reason
        var testDescription: String { server }
    }

    static let failures: [FailureCase] = [
        FailureCase(server: "expired", minimumVersion: .tls12, httpClient: .expired, urlSession: .incompleteChain),
        FailureCase(server: "wrong_host", minimumVersion: .tls12, httpClient: .wrongHost, urlSession: .incompleteChain),
        FailureCase(
            server: "untrusted_root", minimumVersion: .tls12, httpClient: .untrustedRoot, urlSession: .untrustedRoot),
        FailureCase(server: "self_signed", minimumVersion: .tls12, httpClient: .selfSigned, urlSession: .selfSigned),
        FailureCase(
            server: "incomplete_chain", minimumVersion: .tls12, httpClient: .incompleteChain,
            urlSession: .incompleteChain),
        FailureCase(
            server: "client_cert_handshake", minimumVersion: .tls12, httpClient: .clientCertificateRequired,
            urlSession: .incompleteChain),
        FailureCase(server: "plain", minimumVersion: .tls12, httpClient: .notTLS, urlSession: .notTLS),
        FailureCase(
            server: "tls12_only", minimumVersion: .tls13, httpClient: .protocolVersion, urlSession: .incompleteChain),
    ]

    @Test(arguments: failures)
    func overAsyncHTTPClientEachFailureSaysWhichCheckFailed(failure: FailureCase) async throws {
        let catalogue = try TLSCatalogue.required()
        let transport = try HTTPClientTransport(tls: Self.privateCA(minimumVersion: failure.minimumVersion))
        let error = await Self.failure(failure.server, over: transport, catalogue: catalogue)
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == failure.httpClient, "\(String(describing: error))")
        print("HTTPClientTransport, \(failure.server): \(error.map { "\($0)" } ?? "no error")")
    }

    @Test(arguments: failures)
    func overURLSessionEachFailureIsATLSFailure(failure: FailureCase) async throws {
        let catalogue = try TLSCatalogue.required()
        let error = await Self.failure(failure.server, over: StreamingURLSessionTransport(), catalogue: catalogue)
        #expect(error?.kind == .tls)
        #expect(error?.tlsFailure?.reason == failure.urlSession, "\(String(describing: error))")
        print("StreamingURLSessionTransport, \(failure.server): \(error.map { "\($0)" } ?? "no error")")
    }

    /// The error of a request to a failing server, which must not have reached it (no request in its log).
    static func failure(
        _ server: String, over transport: any ClientTransport, catalogue: TLSCatalogue
    ) async -> APIError? {
        let marker = UUID().uuidString
        let error = await #expect(throws: APIError.self) { try await fetch(server, marker: marker, over: transport) }
        #expect(error?.method == .get)
        #expect(error?.url?.hasSuffix("/tls/\(server)?marker=\(marker)") == true)
        #expect(error?.attempts == nil)
        #expect(!catalogue.received(marker, server: server))
        return error
    }

    @Test func settingsURLSessionCannotApplyFailBeforeAnyConnection() async throws {
        let catalogue = try TLSCatalogue.required()
        let marker = UUID().uuidString
        let transport = StreamingURLSessionTransport(tls: try Self.privateCA())
        let error = await #expect(throws: APIError.self) {
            try await Self.fetch("good", marker: marker, over: transport)
        }
        #expect(error?.kind == .unsupported)
        #expect(
            error?.description.contains(
                "cannot apply these TLS settings: trusting other roots; use HTTPClientTransport")
                == true, "\(String(describing: error))")
        #expect(!catalogue.received(marker, server: "good"))
    }
}

/// HTTP/2 over TLS, negotiated by ALPN, against nginx's HTTP/2 server.
@Suite(.enabled(if: TLSCatalogue.available), .timeLimit(.minutes(2)))
struct HTTP2Tests {
    struct Echo: Decodable, Sendable {
        let `protocol`: String
        /// nginx's serial number of the connection that carried the request.
        let connection: Int
    }

    /// `count` GETs of `path` at once, each with its index in the query.
    static func concurrently(_ count: Int, client: APIClient, path: RoutePath) async throws -> [Echo] {
        try await withThrowingTaskGroup(of: Echo.self) { group in
            for index in 0..<count {
                group.addTask { try await client.send(APIRequest<Echo>.get(path, query: ["index": "\(index)"])) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aHundredConcurrentRequestsShareOneConnection() async throws {
        let client = APIClient(
            baseURL: try TLSCatalogue.required().url("h2"),
            transport: try HTTPClientTransport(tls: TLSServerTests.privateCA()))
        // The first request learns, by ALPN, that the origin speaks HTTP/2; until then AsyncHTTPClient's pool may
        // open HTTP/1.1 connections for requests that arrive together.
        let response = try await client.response(APIRequest<Echo>.get("/h2"))
        let first = response.value
        #expect(first.protocol == "HTTP/2.0")
        #expect(response.httpProtocol == .http2, "the response says which protocol carried it")
        #expect(response.httpProtocol?.description == "HTTP/2")
        let echoes = try await Self.concurrently(100, client: client, path: "/h2")
        #expect(echoes.count == 100)
        #expect(Set(echoes.map(\.protocol)) == ["HTTP/2.0"])
        #expect(Set(echoes.map(\.connection)) == [first.connection])
    }

    @Test func requestsAGoAwayLeftUnansweredAreRetriedOnANewConnection() async throws {
        // h2_goaway ends each connection with GOAWAY after 10 requests; the streams it refused were never
        // processed, so Courier's retry rules send them again, and AsyncHTTPClient opens a new connection.
        let client = APIClient(
            baseURL: try TLSCatalogue.required().url("h2_goaway"),
            transport: try HTTPClientTransport(tls: TLSServerTests.privateCA()),
            // Each round of retries lands on a new connection that takes 10 and refuses the rest: 30 requests need
            // at most 3 rounds after the first.
            middlewares: [.retry(RetryPolicy(maxAttempts: 8, baseDelay: .zero))])
        let first = try await client.response(APIRequest<Echo>.get("/goaway"))
        #expect(first.value.protocol == "HTTP/2.0")
        #expect(first.httpProtocol == .http2, "reported through middleware too")
        let echoes = try await Self.concurrently(30, client: client, path: "/goaway")
        #expect(echoes.count == 30)
        #expect(Set(echoes.map(\.connection)).count >= 3, "10 requests a connection at most")
    }

    @Test func serverSentEventsStreamOverHTTP2() async throws {
        struct Tick: Decodable, Equatable { let n: Int }
        let client = APIClient(
            baseURL: try TLSCatalogue.required().url("h2"),
            transport: try HTTPClientTransport(tls: TLSServerTests.privateCA()))
        var ticks: [Tick] = []
        var ids: [String] = []
        for try await event in client.events(APIRequest<Void>.get("/events"), reconnecting: .never) {
            #expect(event.type == "tick")
            ticks.append(try event.decode(Tick.self))
            ids.append(event.lastEventID)
        }
        #expect(ticks == (0..<100).map(Tick.init))
        #expect(ids.last == "99")
        // nginx logged the stream as HTTP/2.
        let log = try String(contentsOfFile: TLSCatalogue.required().servers["h2"]?.log ?? "", encoding: .utf8)
        #expect(log.contains("\"GET /events HTTP/2.0\" 200"))
    }
}
