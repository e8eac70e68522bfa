import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import Synchronization
import Testing

@testable import Courier

#if canImport(OpenAPIAsyncHTTPClient)
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#endif

/// Every real transport the conformance suites run against. A new transport is one case here.
enum TransportUnderTest: String, Sendable, CustomTestStringConvertible {
    /// Courier's `StreamingURLSessionTransport` (the Apple-platform default; URLSession on Linux).
    case urlSession
    /// Courier's `HTTPClientTransport` exactly as `DefaultTransport` makes it (the Linux default).
    case httpClient
    /// swift-openapi-async-http-client's `AsyncHTTPClientTransport`, on the `HTTPClient` Courier's default
    /// uses (`HTTPClient.shared` would retry a refused connection for a minute).
    case openAPIAsyncHTTPClient
    /// Courier's `HTTPClientTransport` trusting the TLS catalogue's test CA, talking to the test servers over TLS
    /// (HTTP/2 by ALPN): in ``allWithTLS``, for the suites that hold Courier's guarantees over TLS too. Each
    /// transport has a connection pool of its own (``TLSTestClients``).
    case httpClientTLS
    /// swift-openapi-urlsession's `URLSessionTransport`: not in ``all``, because it follows redirects and (on
    /// Linux) buffers bodies where Courier can't stop it; tests that record those gaps use it by name.
    case openAPIURLSession

    /// The transports available on this platform.
    static var all: [TransportUnderTest] {
        #if canImport(OpenAPIAsyncHTTPClient)
            [.urlSession, .httpClient, .openAPIAsyncHTTPClient]
        #else
            [.urlSession]
        #endif
    }

    /// ``all`` and ``httpClientTLS`` where the TLS catalogue is there (URLSession on Linux cannot trust its CA).
    static var allWithTLS: [TransportUnderTest] {
        #if canImport(OpenAPIAsyncHTTPClient)
            all + (TLSCatalogue.available ? [.httpClientTLS] : [])
        #else
            all
        #endif
    }

    func make() -> any ClientTransport {
        switch self {
        case .httpClientTLS:
            #if canImport(AsyncHTTPClient)
                return TLSTestClients.make()
            #else
                return DefaultTransport.make()
            #endif
        case .urlSession:
            return StreamingURLSessionTransport.shared
        case .httpClient:
            return DefaultTransport.make()
        case .openAPIURLSession:
            return URLSessionTransport()
        case .openAPIAsyncHTTPClient:
            #if canImport(OpenAPIAsyncHTTPClient)
                return AsyncHTTPClientTransport(configuration: .init(client: HTTPClientTransport.sharedClient))
            #else
                return StreamingURLSessionTransport.shared
            #endif
        }
    }

    /// A transport of this kind with a connection pool of its own: URLSession's shared session opens at most
    /// six connections to a host, which the rest of the suite's long requests may hold, so a test that waits
    /// for its own request to reach the server gets a session of its own.
    func makeOwn() -> any ClientTransport {
        self == .urlSession ? StreamingURLSessionTransport() : make()
    }

    var testDescription: String { rawValue }
}

extension TransportUnderTest {
    /// The shared test server this transport talks to: over TLS for ``httpClientTLS``.
    func testServerURL() async throws -> URL {
        self == .httpClientTLS ? try await TestServers.tlsTestServerURL() : try await TestServers.testServerURL()
    }

    /// The second origin (127.0.0.2) this transport talks to: over TLS for ``httpClientTLS``.
    func secondOriginURL() async throws -> URL {
        self == .httpClientTLS ? try await TestServers.tlsSecondOriginURL() : try await TestServers.secondOriginURL()
    }

    /// A client for the shared test server (``testServerURL()``) over this transport.
    func demoClient(
        middlewares: [any ClientMiddleware] = [], ownPool: Bool = false,
        configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) async throws -> APIClient {
        APIClient(
            baseURL: try await testServerURL(), transport: ownPool ? makeOwn() : make(),
            middlewares: middlewares,
            configure: configure)
    }
}

#if canImport(AsyncHTTPClient)
    /// `HTTPClient`s configured as `HTTPClientTransport(tls:)` configures its own, trusting the test CA, one per
    /// transport: HTTP/2 carries every request of a client to an origin on one connection, so test routes that
    /// drop their connection (to cut a body or an event stream short) would fail every other test on it. Kept
    /// for the life of the test process, as Courier keeps its own.
    enum TLSTestClients {
        private static let kept = Mutex<[HTTPClient]>([])

        static func make() -> HTTPClientTransport {
            var configuration = HTTPClientTransport.sharedConfiguration
            let roots = (try? TLSCatalogue.required().rootCA()) ?? []
            // Without the catalogue the TLS servers don't start either, and the test fails there, saying why.
            configuration.tlsConfiguration = try? TLSSettings(trust: .only(roots)).nioConfiguration()
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
            kept.withLock { $0.append(client) }
            return HTTPClientTransport(client: client)
        }
    }
#endif
