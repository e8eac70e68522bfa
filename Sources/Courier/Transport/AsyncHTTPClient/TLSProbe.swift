#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL

    /// A TLS handshake of Courier's own, beside AsyncHTTPClient's connection, to learn what that connection does
    /// not show: the certificate chain the server presents (AsyncHTTPClient shows only the server's own
    /// certificate, and BoringSSL says only "verify failed"), and the alert a server sends after the handshake
    /// (TLS 1.3 servers refuse a missing client certificate that way, and AsyncHTTPClient reports only that the
    /// connection closed). It sends no request.
    enum TLSProbe {
        /// What the server presented and said.
        struct Outcome {
            /// The chain as presented, leaf first (unverified).
            var chain: [TLSCertificate]
            /// The TLS library's words for the error the connection met, if any: a server's alert, or a handshake
            /// failure.
            var error: [String]?
        }

        /// The chain `host`:`port` presents, leaf first, as sent (unverified); the handshake stops there.
        static func presentedChain(host: String, port: Int, settings: TLSSettings) async throws -> [TLSCertificate] {
            try await run(host: host, port: port, settings: settings, completingHandshake: false).chain
        }

        /// Completes a handshake with `settings` (the chain is not checked: nothing is sent on it) and waits up to
        /// `wait` for the server to refuse the connection, as a server that wanted a client certificate does.
        static func refusal(host: String, port: Int, settings: TLSSettings, wait: TimeAmount = .seconds(2))
            async throws -> [String]?
        {
            try await run(host: host, port: port, settings: settings, completingHandshake: true, wait: wait).error
        }

        private static func run(
            host: String, port: Int, settings: TLSSettings, completingHandshake: Bool, wait: TimeAmount = .seconds(2)
        ) async throws -> Outcome {
            var configuration = try settings.nioConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            let context = try NIOSSLContext(configuration: configuration)
            let loop = HTTPClient.defaultEventLoopGroup.next()
            let presented = loop.makePromise(of: [NIOSSLCertificate].self)
            let ended = loop.makePromise(of: [String]?.self)
            let serverName: String? = IPAddressText.isAddress(host) ? nil : host
            let channel: any Channel
            do {
                channel = try await ClientBootstrap(group: loop)
                    .connectTimeout(.seconds(10))
                    .channelInitializer { channel in
                        channel.eventLoop.makeCompletedFuture {
                            let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName) {
                                certificates, verification in
                                presented.succeed(certificates)
                                verification.succeed(
                                    completingHandshake ? .certificateVerified : NIOSSLVerificationResult.failed)
                            }
                            try channel.pipeline.syncOperations.addHandler(handler)
                            try channel.pipeline.syncOperations.addHandler(ErrorCatcher(ended: ended))
                        }
                    }
                    .connect(host: host, port: port).get()
            } catch {
                presented.fail(error)
                ended.fail(error)
                throw error
            }
            channel.closeFuture.whenComplete { _ in
                presented.fail(ChannelError.eof)
                ended.succeed(nil)
            }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try await presented.futureResult.get()
            } catch {
                channel.close(promise: nil)
                throw error
            }
            var outcome = Outcome(chain: certificates.compactMap { try? TLSCertificate(der: $0.toDERBytes()) })
            if completingHandshake {
                // A server that refuses the client says so right after the handshake; one that doesn't stays quiet.
                let deadline = loop.scheduleTask(in: wait) { ended.succeed(nil) }
                outcome.error = try? await ended.futureResult.get()
                deadline.cancel()
            }
            channel.close(promise: nil)
            return outcome
        }

        /// Keeps the first error the connection meets (the server's alert arrives as one).
        private final class ErrorCatcher: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            let ended: EventLoopPromise<[String]?>

            init(ended: EventLoopPromise<[String]?>) { self.ended = ended }

            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                ended.succeed(HTTPClientTransport.errorStack(error) ?? [String(describing: error)])
                context.close(promise: nil)
            }
        }
    }
#endif
