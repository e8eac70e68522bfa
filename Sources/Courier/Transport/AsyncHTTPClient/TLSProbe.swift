#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import NIOTLS

    /// A TLS handshake of Courier's own, beside AsyncHTTPClient's connections, to learn what those do not show:
    /// the certificate chain a server presents (AsyncHTTPClient shows only the server's own certificate, and
    /// BoringSSL says only "verify failed"), and the alert a server sends after the handshake (TLS 1.3 servers
    /// refuse a missing client certificate that way, and AsyncHTTPClient reports only a closed connection).
    /// It sends no request, and gives up after ``handshakeLimit``.
    struct TLSProbe: Sendable {
        /// The client's settings, the host name unchecked (the chain is what is read), offering the protocols
        /// AsyncHTTPClient offers.
        private let context: NIOSSLContext

        /// How long a probe's connection and handshake may take.
        static let handshakeLimit = TimeAmount.seconds(10)
        /// How long a probe waits after its handshake for the server to refuse the client: the alert follows the
        /// handshake within a round trip. A server further than this that refuses a client certificate reads as
        /// a closed connection.
        static let refusalWait = TimeAmount.milliseconds(250)

        init(settings: TLSSettings) throws(TLSMaterialError) {
            var configuration = try settings.nioConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            context = try Self.context(configuration)
        }

        /// The chain `host` presents at `address` (or at `host`:`port` when there is none), leaf first, as sent
        /// (unverified): the handshake stops once it has arrived.
        func presentedChain(host: String, port: Int = 443, address: SocketAddress? = nil) async throws
            -> [TLSCertificate]
        {
            let loop = HTTPClient.defaultEventLoopGroup.next()
            let presented = loop.makePromise(of: [NIOSSLCertificate].self)
            let context = self.context
            let channel = try await Self.connect(host: host, port: port, address: address, on: loop) {
                try NIOSSLClientHandler(context: context, serverHostname: Self.serverName(host)) {
                    certificates, verification in
                    presented.succeed(certificates)
                    verification.succeed(NIOSSLVerificationResult.failed)  // the chain is all it wanted
                }
            } failing: {
                presented.fail($0)
            }
            defer { channel.close(promise: nil) }
            return try await presented.futureResult.get().compactMap { try? TLSCertificate(der: $0.toDERBytes()) }
        }

        /// The error a complete, fully verified handshake to `host`:`port` with `settings` meets within
        /// ``refusalWait`` after it, in BoringSSL's words (the server's alert), or `nil` when the server stays
        /// quiet. A handshake that itself fails returns its error.
        static func refusal(host: String, port: Int, settings: TLSSettings) async throws -> [String]? {
            let context = try Self.context(try settings.nioConfiguration())
            let loop = HTTPClient.defaultEventLoopGroup.next()
            let handshake = loop.makePromise(of: Void.self)
            let ended = loop.makePromise(of: [String]?.self)
            let channel = try await connect(host: host, port: port, address: nil, on: loop) {
                try NIOSSLClientHandler(context: context, serverHostname: serverName(host))
            } watching: {
                ProbeWatcher(handshake: handshake, ended: ended)
            } failing: {
                handshake.fail($0)
                ended.fail($0)
            }
            defer { channel.close(promise: nil) }
            do {
                try await handshake.futureResult.get()
            } catch {
                return try await ended.futureResult.get()
            }
            let deadline = loop.scheduleTask(in: refusalWait) { ended.succeed(nil) }
            defer { deadline.cancel() }
            return try await ended.futureResult.get()
        }

        /// A connected channel with `handler` (and `watcher`'s handler after it), closed after ``handshakeLimit``;
        /// `failing` is told when the channel fails or closes, so no promise waits for ever.
        private static func connect(
            host: String, port: Int, address: SocketAddress?, on loop: any EventLoop,
            handler: @escaping @Sendable () throws -> NIOSSLClientHandler,
            watching watcher: (@Sendable () -> ProbeWatcher)? = nil,
            failing: @escaping @Sendable (any Error) -> Void
        ) async throws -> any Channel {
            let bootstrap = ClientBootstrap(group: loop)
                .connectTimeout(handshakeLimit)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(handler())
                        if let watcher { try channel.pipeline.syncOperations.addHandler(watcher()) }
                    }
                }
            let channel: any Channel
            do {
                channel = try await
                    (address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: host, port: port))
                    .get()
            } catch {
                failing(error)
                throw error
            }
            let limit = loop.scheduleTask(in: handshakeLimit) { channel.close(promise: nil) }
            channel.closeFuture.whenComplete { _ in
                limit.cancel()
                failing(ChannelError.eof)
            }
            return channel
        }

        private static func context(_ configuration: NIOSSL.TLSConfiguration) throws(TLSMaterialError)
            -> NIOSSLContext
        {
            var configuration = configuration
            configuration.applicationProtocols = ["h2", "http/1.1"]
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw TLSMaterialError("BoringSSL could not use the TLS settings (\(error))")
            }
        }

        /// The name sent as SNI: none for an IP address.
        private static func serverName(_ host: String) -> String? { IPAddressText.isAddress(host) ? nil : host }

        /// Tells a refusal probe when its handshake completed and the first error its connection met (the
        /// server's alert arrives as one).
        private final class ProbeWatcher: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            let handshake: EventLoopPromise<Void>
            let ended: EventLoopPromise<[String]?>

            init(handshake: EventLoopPromise<Void>, ended: EventLoopPromise<[String]?>) {
                self.handshake = handshake
                self.ended = ended
            }

            func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
                if case TLSUserEvent.handshakeCompleted = event { handshake.succeed() }
                context.fireUserInboundEventTriggered(event)
            }

            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                ended.succeed(HTTPClientTransport.errorStack(error) ?? [String(describing: error)])
                handshake.fail(error)
                context.close(promise: nil)
            }
        }
    }
#endif
