#if canImport(NIOPosix)
    public import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    /// The browser step of a command-line or server tool (RFC 8252 §7.3): listens on
    /// `http://127.0.0.1:<free port>/callback`, has `open` show the sign-in page (print it, or start a
    /// browser), and returns the first request to the callback path, then stops listening.
    ///
    /// ```swift
    /// let agent = OAuth2LoopbackUserAgent { url in print("Sign in at \(url)") }
    /// let token = try await oauth.authorizationCode(scope: ["openid", "read"], userAgent: agent)
    /// ```
    /// Register `http://127.0.0.1/callback` with the provider: loopback redirect URIs match on any port. Only
    /// the loopback interface listens; other paths (a browser's `/favicon.ico`) get `404`, and a callback
    /// without the sign-in page's `state` (another program guessing the port) gets `400`: neither is the
    /// answer. No answer within `timeout` ends in ``APIError/Kind/timedOut``. `open` should return once the
    /// page is shown, or stop when its task is cancelled: the sign-in ends when `open` does.
    public struct OAuth2LoopbackUserAgent: OAuth2UserAgent {
        /// The loopback address listened on: `127.0.0.1` (or another `127.x` address), `::1` or `localhost`;
        /// any other host is refused when the sign-in starts.
        public var host: String
        /// The callback path.
        public var path: String
        /// How long the user has to sign in.
        public var timeout: Duration
        /// What the browser shows after the redirect.
        public var page: OAuth2LoopbackPage
        /// Shows the sign-in page's URL to the user.
        public var open: @Sendable (URL) async throws -> Void
        /// What `timeout` is measured with.
        let time: TimeSource

        /// A loopback user agent.
        /// - Parameters:
        ///   - host: the loopback address to listen on; `127.0.0.1` by default (RFC 8252 §8.3 advises against
        ///     `localhost`).
        ///   - path: the callback path.
        ///   - timeout: how long the user has to sign in; five minutes by default.
        ///   - page: what the browser shows once the redirect arrives.
        ///   - clock: what `timeout` is measured with; a test clock in tests.
        ///   - open: shows the sign-in page's URL: prints it, or starts a browser with it.
        public init(
            host: String = "127.0.0.1", path: String = "/callback", timeout: Duration = .seconds(300),
            page: OAuth2LoopbackPage = .standard, clock: any Clock<Duration> = ContinuousClock(),
            open: @escaping @Sendable (URL) async throws -> Void
        ) {
            self.host = host
            self.path = path.hasPrefix("/") ? path : "/" + path
            self.timeout = timeout
            self.page = page
            self.open = open
            time = TimeSource(clock)
        }

        typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>

        /// Listens, opens the page `makeURL` makes for the loopback redirect URI, and waits for the redirect.
        public func authorize(_ makeURL: (URL) throws -> URL) async throws -> URL {
            guard ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") else {
                throw APIError(
                    .invalidRequest, phase: .building,
                    message: "OAuth 2.0 sign-in: \(host) is not a loopback address (RFC 8252 §7.3)")
            }
            let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: 0) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        return try Connection(wrappingChannelSynchronously: channel)
                    }
                }
            let origin = host.contains(":") ? "http://[\(host)]" : "http://\(host)"
            let url: URL
            let redirectURI: URL
            do {
                guard let port = server.channel.localAddress?.port,
                    let made = URL(string: "\(origin):\(port)\(path)")
                else {
                    throw APIError(
                        .invalidRequest, phase: .building,
                        message: "OAuth 2.0 sign-in: no redirect URI for \(origin) and the path \(path)")
                }
                redirectURI = made
                url = try makeURL(made)
            } catch {
                try? await server.channel.close()
                throw error
            }
            let (results, sink) = AsyncStream<Result<URL, any Error>>.makeStream()
            let (timeout, time, page, open) = (timeout, time, page, open)
            let state = OAuth2Client.callbackParameters(url)["state"]
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        try await Self.serve(server, redirectURI: redirectURI, state: state, page: page, sink: sink)
                    } catch {
                        sink.yield(.failure(error))
                    }
                }
                group.addTask {
                    do { try await open(url) } catch { sink.yield(.failure(error)) }
                }
                group.addTask {
                    do { try await time.sleep(for: timeout) } catch { return }
                    sink.yield(
                        .failure(
                            APIError(
                                .timedOut, phase: .sending,
                                message: "OAuth 2.0 sign-in: no redirect reached \(redirectURI.absoluteString) "
                                    + "within \(timeout)")))
                }
                defer { group.cancelAll() }
                for await result in results { return try result.get() }
                throw APIError(.cancelled, phase: .sending, message: "OAuth 2.0 sign-in was cancelled")
            }
        }

        /// Accepts connections until cancelled, and reports the first request to the callback path that
        /// carries `state`.
        static func serve(
            _ server: NIOAsyncChannel<Connection, Never>, redirectURI: URL, state: String?, page: OAuth2LoopbackPage,
            sink: AsyncStream<Result<URL, any Error>>.Continuation
        ) async throws {
            try await server.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask {
                            // A connection that fails (a browser's speculative one, closed unused) is not the answer.
                            if let callback = try? await answer(
                                connection, redirectURI: redirectURI, state: state, page: page)
                            {
                                sink.yield(.success(callback))
                            }
                        }
                    }
                }
            }
        }

        /// Reads requests on one connection until one to the callback path with `state`; answers it with `page`
        /// and returns its URL. Another path gets `404`, another state `400`.
        static func answer(_ connection: Connection, redirectURI: URL, state: String?, page: OAuth2LoopbackPage)
            async throws -> URL?
        {
            try await connection.executeThenClose { inbound, outbound in
                var head: HTTPRequestHead?
                for try await part in inbound {
                    switch part {
                    case .head(let received): head = received
                    case .body: continue
                    case .end:
                        guard let request = head else { continue }
                        head = nil
                        let target = request.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
                        guard request.method == .GET, target == redirectURI.path,
                            let callback = URL(string: redirectURI.absoluteString + request.uri.dropFirst(target.count))
                        else {
                            try await write(.notFound, "<!doctype html><title>Not found</title>", to: outbound)
                            continue
                        }
                        let parameters = OAuth2Client.callbackParameters(callback)
                        guard state == nil || parameters["state"] == state else {
                            try await write(.badRequest, "<!doctype html><title>Not this sign-in</title>", to: outbound)
                            continue
                        }
                        let succeeded = parameters["code"] != nil && parameters["error"] == nil
                        // The answer is in: a browser that closes before the page's last write does not lose it.
                        try? await write(.ok, succeeded ? page.signedIn : page.failed, to: outbound, closing: true)
                        return callback
                    }
                }
                return nil
            }
        }

        /// Writes one HTML response.
        static func write(
            _ status: HTTPResponseStatus, _ html: String,
            to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
            closing: Bool = false
        ) async throws {
            var headers = HTTPHeaders([
                ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "\(html.utf8.count)"),
                ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
            ])
            if closing { headers.add(name: "Connection", value: "close") }
            try await outbound.write(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)))
            try await outbound.write(.body(.byteBuffer(ByteBuffer(string: html))))
            try await outbound.write(.end(nil))
        }
    }
#endif
