import CourierDemoServer
import CourierTestServer
import Foundation

/// The real servers the end-to-end tests talk to: test servers (``TestServer``: the demo server's example APIs
/// and the routes that exist only for tests) on loopback addresses (127.0.0.1, and 127.0.0.2 for a second
/// origin), in this process or in a child process of their own, and httpbin wherever `COURIER_HTTPBIN_URL`
/// says (`scripts/test` starts it on 127.0.0.1).
enum TestServers {
    /// One in-process test server for the whole test run, started on first use on a free port.
    private static let shared = Task { try await TestServer.start() }

    /// The test server's base URL, starting it if needed.
    static func testServerURL() async throws -> URL { try await shared.value.baseURL }

    /// A second test server on another loopback address (127.0.0.2): another origin, for redirect tests.
    private static let secondOrigin = Task { try await TestServer.start(host: "127.0.0.2") }

    /// The second test server's base URL, starting it if needed.
    static func secondOriginURL() async throws -> URL { try await secondOrigin.value.baseURL }

    /// The test server over TLS (HTTP/2 by ALPN) with the TLS catalogue's good certificate, on 127.0.0.1 and on
    /// 127.0.0.2 (the second origin); started on first use.
    private static let tlsServers = Task {
        let identity = try TLSCatalogue.required().server_identity
        return try await (
            TestServer.start(certificateChainFile: identity.chain_pem, privateKeyFile: identity.key_pem),
            TestServer.start(
                host: "127.0.0.2", certificateChainFile: identity.chain_pem, privateKeyFile: identity.key_pem)
        )
    }

    /// The TLS test server's base URL (`https://127.0.0.1:…`), starting it if needed.
    static func tlsTestServerURL() async throws -> URL { try await tlsServers.value.0.baseURL }

    /// The second TLS test server's base URL (`https://127.0.0.2:…`), starting it if needed.
    static func tlsSecondOriginURL() async throws -> URL { try await tlsServers.value.1.baseURL }

    /// httpbin under gunicorn, started by `scripts/test` (or CI) and named by `COURIER_HTTPBIN_URL`.
    static let httpbinURL: URL? = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"].flatMap {
        URL(string: $0)
    }

    /// httpbin tests run when httpbin is there, and always on CI, where a missing httpbin must fail.
    static let httpbinAvailable = httpbinURL != nil || ProcessInfo.processInfo.environment["CI"] != nil

    /// sse-starlette under uvicorn (`scripts/servers/sse_app.py`), started by `scripts/test` and named by
    /// `COURIER_SSE_URL`.
    static let sseServerURL: URL? = ProcessInfo.processInfo.environment["COURIER_SSE_URL"].flatMap {
        URL(string: $0)
    }

    /// Its tests run when it is there, and always on CI, where a missing server must fail.
    static let sseServerAvailable = sseServerURL != nil || ProcessInfo.processInfo.environment["CI"] != nil
}

extension TestServers {
    /// Runs `body` against a test server of its own, for tests that read the server's counters.
    static func withFreshTestServer<T>(_ body: (URL) async throws -> T) async throws -> T {
        let server = try await TestServer.start()
        do {
            let result = try await body(server.baseURL)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }
}

extension TestServers {
    /// Runs `body` against the test server in a process of its own (`courier-test-server`, built beside the
    /// tests; see ``TestServerProcess``), so that memory measured in this process is the client's alone.
    /// Over TLS, with the TLS catalogue's certificate, for ``TransportUnderTest/httpClientTLS``.
    static func withTestServerProcess<T>(for transport: TransportUnderTest? = nil, _ body: (URL) async throws -> T)
        async throws -> T
    {
        let identity = transport == .httpClientTLS ? try TLSCatalogue.required().server_identity : nil
        let server = try TestServerProcess(tls: identity.map { ($0.chain_pem, $0.key_pem) })
        defer { server.stop() }
        return try await body(server.baseURL)
    }
}
