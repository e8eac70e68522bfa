#if canImport(AsyncHTTPClient)
    public import AsyncHTTPClient
    public import Foundation
    public import HTTPTypes
    public import NIOCore
    import NIOHTTP1
    public import OpenAPIRuntime

    /// A `ClientTransport` over AsyncHTTPClient's `HTTPClient.execute`, Courier's default on Linux.
    ///
    /// It does as little as it can per request: the URL is the base URL's text followed by the request's
    /// already-encoded path, header fields are copied in order both ways (repeated fields such as `Set-Cookie`
    /// stay separate), and each response buffer becomes one `HTTPBody` chunk with a single copy. Bodies stream
    /// both ways, so uploads and downloads of any size use bounded memory.
    ///
    /// Courier ships it instead of using swift-openapi-async-http-client's `AsyncHTTPClientTransport` for
    /// three measured reasons (see <doc:TransportsAndLinux>): that transport parses the base URL and
    /// path with `URLComponents` and wraps the body in two generic sequences on every request (8 allocations
    /// and 1.6–6.5 µs of CPU more per request on loopback), it keeps only the last of repeated response
    /// fields (so all but one `Set-Cookie` is lost), and it force-unwraps response field names.
    /// `AsyncHTTPClientTransport` still works with Courier, as any `ClientTransport` does.
    ///
    /// ```swift
    /// let transport = HTTPClientTransport(client: myHTTPClient)  // one you own and shut down
    /// let client = APIClient(baseURL: url, transport: transport)
    /// ```
    /// Available where Courier builds AsyncHTTPClient: Linux and macOS. The base URL must not carry a query
    /// or fragment (Courier's base URLs never do).
    public struct HTTPClientTransport: ClientTransport, BufferingTransport {
        /// The client that sends the requests.
        public let client: HTTPClient
        /// How long one exchange may take, up to the response head; one minute by default.
        public let timeout: TimeAmount
        /// The TLS settings and pinned hosts' clients, for a transport made with settings.
        private let routing: TLSRouting?

        /// The TLS settings of the transport's connections, or `nil` for a client you passed, whose own
        /// `tlsConfiguration` applies.
        public var tls: TLSSettings? { routing?.settings ?? (client === Self.sharedClient ? .default : nil) }

        /// A transport over Courier's process-wide `HTTPClient` (see ``sharedClient``), the one
        /// ``DefaultTransport`` uses on Linux.
        public init(timeout: TimeAmount = .minutes(1)) {
            self.init(client: Self.sharedClient, timeout: timeout, routing: nil)
        }

        /// A transport whose connections use `tls`: trusted roots, pins, a client identity, a minimum version.
        ///
        /// The `HTTPClient` is made for these settings and shared by every transport made with equal ones; like
        /// ``sharedClient`` it lives as long as the process. A host with pins gets connections of its own, each
        /// checked before a request is sent on it. Throws when a certificate or key cannot be loaded.
        public init(tls: TLSSettings, timeout: TimeAmount = .minutes(1)) throws(TLSMaterialError) {
            if tls == .default {
                self.init(timeout: timeout)
            } else {
                let routing = try TLSRouting(settings: tls)
                self.init(client: routing.client, timeout: timeout, routing: routing)
            }
        }

        /// A transport over `client`, which you own and shut down.
        public init(client: HTTPClient, timeout: TimeAmount = .minutes(1)) {
            self.init(client: client, timeout: timeout, routing: nil)
        }

        private init(client: HTTPClient, timeout: TimeAmount, routing: TLSRouting?) {
            self.client = client
            self.timeout = timeout
            self.routing = routing
        }

        /// The `HTTPClient` behind ``init(timeout:)``: AsyncHTTPClient's shared configuration
        /// (`singletonConfiguration`) on its shared event loops, with these changes:
        /// - It keeps up to ``connectionsPerHost`` HTTP/1.1 connections to each host instead of 8, so that an
        ///   API client with many requests in flight doesn't queue them behind eight, and closes idle ones after
        ///   60 s (the shared configuration keeps them 10 minutes). Over TLS it uses HTTP/2 where the server
        ///   offers it, one connection carrying every request, as AsyncHTTPClient does by default.
        /// - AsyncHTTPClient's own retrying of failed connection attempts is off, so a refused connection fails
        ///   at once instead of waiting out the connect timeout (90 s), and retrying stays with the policy you
        ///   choose (``RetryMiddleware``) instead of being multiplied by a hidden one.
        /// - It follows no redirect: ``APIClient`` follows them itself (``RedirectPolicy``), where
        ///   AsyncHTTPClient would carry custom credential headers such as `X-API-Key` to another origin.
        /// - Nor does it decompress: ``APIClient`` decodes gzip and deflate as the body streams and counts the
        ///   decoded bytes against its body limit, where AsyncHTTPClient's browser-like ratio limit (25×) fails
        ///   as a bare `limit` error.
        ///
        /// It keeps the shared configuration's 90 s read timeout, the only thing that ends a response body that
        /// stops arriving when no client time limit is set. It lives as long as the process, like
        /// `HTTPClient.shared`, and is never shut down.
        ///
        /// A client you pass to ``init(client:timeout:)`` should follow no redirects either
        /// (`configuration.redirectConfiguration = .disallow`); one that does follows them before Courier
        /// sees them. It should not trace either (`configuration.tracing.tracer = nil`): Courier does.
        public static let sharedClient = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: sharedConfiguration)

        /// ``sharedClient``'s configuration, which clients made for ``TLSSettings`` start from.
        static var sharedConfiguration: HTTPClient.Configuration {
            var configuration = HTTPClient.Configuration.singletonConfiguration
            configuration.tlsConfiguration = TLSSettings.nioConfiguration(minimumVersion: .tls12)
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connectionsPerHost
            configuration.connectionPool.idleTimeout = .seconds(60)
            configuration.connectionPool.retryConnectionEstablishment = false
            configuration.redirectConfiguration = .disallow
            configuration.decompression = .disabled
            // Courier traces every request itself (a span per call and per request sent, its context injected);
            // AsyncHTTPClient's own span would be a third, and its second `traceparent` field would make servers
            // drop the trace.
            configuration.tracing.tracer = nil
            // Keeps NIOHTTP2's parser from growing with a download (see HTTP2FrameSplitter).
            configuration.http2ConnectionDebugInitializer = HTTP2FrameSplitter.install
            return configuration
        }

        /// How many HTTP/1.1 connections ``sharedClient`` keeps open to one host at most: 64. Connections open
        /// only as concurrent requests need them, and idle ones close after 60 s. AsyncHTTPClient's default
        /// of 8 made 64 concurrent requests to one API queue behind eight connections.
        public static let connectionsPerHost = 64

        /// Sends `request` and returns the response head with its body streaming. A failure to send is an
        /// ``APIError`` that names the request and says what happened (a cancellation stays a
        /// `CancellationError`).
        public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            // Not through `sendKeepingBuffers`: one async frame more cost 2,000 instructions a request.
            let response = try await execute(request, body: body, baseURL: baseURL)
            return Self.makeResponse(response, to: request, baseURL: baseURL)
        }

        /// ``send(_:body:baseURL:operationID:)`` for ``APIClient``'s pipeline: the body is AsyncHTTPClient's own
        /// buffers, which `send` collects and downloads write to their file as they are.
        func sendKeepingBuffers(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws -> (
            HTTPResponse, ResponseBody?, HTTPProtocol
        ) {
            let response = try await execute(request, body: body, baseURL: baseURL)
            let head = Self.makeHead(response)
            let version = HTTPProtocol(major: response.version.major, minor: response.version.minor)
            guard let length = ResponseBody.length(for: request.method, fields: head.headerFields) else {
                return (head, nil, version)
            }
            return (head, ResponseBody(buffers: ResponseBuffers(body: response.body), length: length), version)
        }

        /// AsyncHTTPClient's response to `request`, its body not yet read.
        @inline(__always)
        private func execute(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL) async throws
            -> HTTPClientResponse
        {
            let clientRequest = Self.makeClientRequest(
                request, body: body, baseURL: baseURL, eventLoops: client.eventLoopGroup)
            do {
                let client = try routing?.client(for: baseURL) ?? client
                return try await client.execute(clientRequest, timeout: timeout)
            } catch {
                throw await sendingFailure(error, request: request, baseURL: baseURL)
            }
        }

        /// What `execute` throws when sending fails: a TLS failure as a ``TLSFailure`` that says which, in the
        /// ``APIError`` every Courier transport throws.
        private func sendingFailure(_ error: any Error, request: HTTPRequest, baseURL: URL) async -> any Error {
            var error = error
            if baseURL.isHTTPS, let host = baseURL.host,
                let failure = await Self.tlsFailure(error, host: host, port: baseURL.port ?? 443, settings: tls)
            {
                error = failure
            }
            return APIError.transportFailure(error, sending: request, to: baseURL)
        }

        /// The AsyncHTTPClient request for `request`, relative to `baseURL`.
        static func makeClientRequest(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, eventLoops: any EventLoopGroup
        ) -> HTTPClientRequest {
            var clientRequest = HTTPClientRequest(url: url(base: baseURL, path: request.path ?? ""))
            clientRequest.method = HTTPMethod(rawValue: request.method.rawValue)
            clientRequest.headers.reserveCapacity(request.headerFields.count)
            for field in request.headerFields {
                clientRequest.headers.add(name: field.name.rawName, value: field.value)
            }
            if let body {
                let length: HTTPClientRequest.Body.Length
                switch body.length {
                case .known(let count): length = .known(count)
                case .unknown: length = .unknown
                }
                let parts = PacedBody(
                    base: body.map { ByteBuffer(bytes: $0) }, eventLoops: eventLoops, window: Self.pacingWindow)
                clientRequest.body = .stream(parts, length: length)
            }
            return clientRequest
        }

        /// How many body bytes pass between two rounds of marks on the event loops (see `PacedBody`): about twice
        /// this waits in their queues at most.
        static let pacingWindow = 256 * 1024

        /// The base URL's text followed by the encoded path and query, with one `/` where they meet.
        static func url(base: URL, path: String) -> String {
            base.textWithoutTrailingSlash + path
        }
    }
#endif
