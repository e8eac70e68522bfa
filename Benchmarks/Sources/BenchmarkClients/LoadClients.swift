import AsyncHTTPClient
public import BenchmarkSupport
public import Courier
public import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request: fetch `/users/octocat` and decode it.
public typealias Fetch = @Sendable () async throws -> User

/// The shared HTTP clients and, for each ``ClientKind``, the request a competent user would write.
/// Raw and Courier variants share one `HTTPClient` (and one `URLSession`), so they share connections.
public struct LoadClients: Sendable {
    /// The server every client talks to.
    public let baseURL: URL
    let httpClient: HTTPClient
    let session: URLSession
    /// One decoder for every raw request, as a careful hand-written client keeps it.
    let decoder = JSONDecoder()

    /// Over TLS: the transport Courier makes for the settings, whose `HTTPClient` raw AsyncHTTPClient uses
    /// too (``ClientKind/courierShipped`` and ``ClientKind/rawAHCCourierClient`` only).
    let tlsTransport: HTTPClientTransport?

    /// Makes the shared clients, sized for `connections` requests in flight; over TLS with `tls` when given.
    public init(baseURL: URL, connections: Int, tls: TLSSettings? = nil) throws {
        self.baseURL = baseURL
        tlsTransport = try tls.map { try HTTPClientTransport(tls: $0) }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections
        httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let sessionConfiguration = URLSessionConfiguration.default
        sessionConfiguration.httpMaximumConnectionsPerHost = connections
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Closes the session and shuts the `HTTPClient` down.
    public func shutdown() async throws {
        session.finishTasksAndInvalidate()
        try await httpClient.shutdown()
    }

    /// The request loop body for `kind`.
    public func fetch(_ kind: ClientKind, login: String = "octocat") -> Fetch {
        switch kind {
        case .rawAHC:
            return { try await rawAHC(login: login, on: httpClient) }
        case .rawAHCCourierClient:
            let client = tlsTransport?.client ?? HTTPClientTransport.sharedClient
            return { try await rawAHC(login: login, on: client) }
        case .rawAHCShared:
            return { try await rawAHC(login: login, on: .shared) }
        case .rawAHCFields:
            // What Courier sends: its default `User-Agent`, and `Accept-Encoding` as `wireHead` adds it.
            let fields = HTTPHeaders([
                ("User-Agent", APIClient.Configuration.defaultUserAgent), ("Accept-Encoding", "gzip, deflate"),
            ])
            return { try await rawAHC(login: login, on: httpClient, headers: fields) }
        case .courierShipped:
            let client = tlsTransport.map { APIClient(baseURL: baseURL, transport: $0) } ?? APIClient(baseURL: baseURL)
            return { try await client.send(GetUser(login: login)) }
        case .courierShippedOnLoop:
            let client = APIClient(baseURL: baseURL)
            let executors = LoopExecutors()
            return { try await executors.run { try await client.send(GetUser(login: login)) } }
        case .courierStreamingURLSession:
            let client = APIClient(baseURL: baseURL, transport: StreamingURLSessionTransport.shared)
            return { try await client.send(GetUser(login: login)) }
        case .rawURLSession:
            return { try await rawURLSession(login: login) }
        case .transportAHC:
            let transport = AsyncHTTPClientTransport(configuration: .init(client: httpClient))
            return { try await viaTransport(transport, login: login) }
        case .transportThinAHC:
            let transport = HTTPClientTransport(client: httpClient)
            return { try await viaTransport(transport, login: login) }
        case .transportURLSession:
            let transport = URLSessionTransport(configuration: .init(session: session))
            return { try await viaTransport(transport, login: login) }
        case .courierAHC:
            let client = APIClient(
                baseURL: baseURL, transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)))
            return { try await client.send(GetUser(login: login)) }
        case .courierThinAHC:
            let client = APIClient(baseURL: baseURL, transport: HTTPClientTransport(client: httpClient))
            return { try await client.send(GetUser(login: login)) }
        case .courierURLSession:
            let client = APIClient(
                baseURL: baseURL, transport: URLSessionTransport(configuration: .init(session: session)))
            return { try await client.send(GetUser(login: login)) }
        }
    }

    private func rawAHC(login: String, on client: HTTPClient, headers: HTTPHeaders? = nil) async throws -> User {
        var request = HTTPClientRequest(url: "\(baseURL.absoluteString)/users/\(login)")
        if let headers { request.headers = headers }
        let response = try await client.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw UnexpectedStatus(code: Int(response.status.code)) }
        let body = try await response.body.collect(upTo: 1 << 20)
        return try decoder.decode(User.self, from: Data(buffer: body))
    }

    /// The least any swift-openapi-runtime client does: one `send`, collect the body, decode.
    private func viaTransport(_ transport: some ClientTransport, login: String) async throws -> User {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/\(login)")
        let (response, body) = try await transport.send(request, body: nil, baseURL: baseURL, operationID: "getUser")
        guard response.status == .ok, let body else { throw UnexpectedStatus(code: response.status.code) }
        return try decoder.decode(User.self, from: try await Data(collecting: body, upTo: 1 << 20))
    }

    private func rawURLSession(login: String) async throws -> User {
        guard let url = URL(string: "\(baseURL.absoluteString)/users/\(login)") else { throw URLError(.badURL) }
        let (data, response) = try await session.data(for: URLRequest(url: url))
        let code = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard code == 200 else { throw UnexpectedStatus(code: code) }
        return try decoder.decode(User.self, from: data)
    }
}

/// A raw request got something other than `200 OK`.
public struct UnexpectedStatus: Error, CustomStringConvertible {
    /// The status code received.
    public let code: Int
    /// A failure for `code`.
    public init(code: Int) { self.code = code }
    /// Names the status.
    public var description: String { "unexpected status \(code)" }
}
