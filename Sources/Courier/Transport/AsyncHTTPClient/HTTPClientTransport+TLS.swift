#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Crypto
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Synchronization

    extension TLSSettings {
        /// swift-nio-ssl's configuration for these settings. Pins are not in it: AsyncHTTPClient takes no
        /// verification callback, so they are checked when a connection is made (``HTTPClientTransport/PinCheck``).
        func nioConfiguration() throws(TLSMaterialError) -> NIOSSL.TLSConfiguration {
            var configuration = Self.nioConfiguration(minimumVersion: minimumVersion)
            switch trust {
            case .system: break
            case .systemAnd(let roots): configuration.additionalTrustRoots = [.certificates(try Self.nio(roots))]
            case .only(let roots): configuration.trustRoots = .certificates(try Self.nio(roots))
            }
            if let identity {
                do {
                    switch identity.material {
                    case .keyPair(let chain, let key, let isPEM):
                        configuration.certificateChain = try Self.nio(chain).map { .certificate($0) }
                        configuration.privateKey = .privateKey(
                            try NIOSSLPrivateKey(bytes: key, format: isPEM ? .pem : .der))
                    case .pkcs12(let bytes, let passphrase):
                        let bundle = try NIOSSLPKCS12Bundle(buffer: bytes, passphrase: Array(passphrase.utf8))
                        configuration.certificateChain = bundle.certificateChain.map { .certificate($0) }
                        configuration.privateKey = .privateKey(bundle.privateKey)
                    }
                } catch let error as TLSMaterialError {
                    throw error
                } catch {
                    // Never the key's bytes: which identity, and that BoringSSL could not load it.
                    throw TLSMaterialError("BoringSSL could not load the client identity \(identity)")
                }
            }
            return configuration
        }

        /// swift-nio-ssl's client defaults (the system's roots, full verification) with `minimumVersion`: its
        /// own minimum is TLS 1.0.
        static func nioConfiguration(minimumVersion: Version) -> NIOSSL.TLSConfiguration {
            var configuration = NIOSSL.TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = minimumVersion == .tls13 ? .tlsv13 : .tlsv12
            return configuration
        }

        private static func nio(_ certificates: [TLSCertificate]) throws(TLSMaterialError) -> [NIOSSLCertificate] {
            do {
                return try certificates.map { try NIOSSLCertificate(bytes: $0.derBytes, format: .der) }
            } catch {
                throw TLSMaterialError("BoringSSL could not load a certificate (\(error))")
            }
        }
    }

    extension HTTPClientTransport {
        /// The `HTTPClient`s made for TLS settings: one per distinct settings (and pinned host), shared by every
        /// transport made with them, living as long as the process like ``sharedClient``.
        private static let tlsClients = Mutex<[TLSClientKey: HTTPClient]>([:])

        private struct TLSClientKey: Hashable {
            let settings: TLSSettings
            /// The host whose pins its connections check, and the pins, or `nil`.
            let pinnedHost: String?
            let pins: Set<[UInt8]>?
        }

        /// The client for `settings` (their pins aside) whose connections check `pins` for `host`, when given.
        static func client(
            for settings: TLSSettings, pinning pins: Set<[UInt8]>? = nil, host: String? = nil
        ) throws(TLSMaterialError) -> HTTPClient {
            let key = TLSClientKey(settings: settings, pinnedHost: pins == nil ? nil : host?.lowercased(), pins: pins)
            if let client = tlsClients.withLock({ $0[key] }) { return client }
            var configuration = sharedConfiguration
            configuration.tlsConfiguration = try settings.nioConfiguration()
            if let pins, let host {
                let check = PinCheck(host: host, hashes: pins, settings: settings)
                configuration.http1_1ConnectionDebugInitializer = check.run
                configuration.http2ConnectionDebugInitializer = check.run
            }
            return tlsClients.withLock { clients in
                if let client = clients[key] { return client }
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                clients[key] = client
                return client
            }
        }

        /// Checks a new connection's certificate chain against a host's pins, after the handshake verified it and
        /// before AsyncHTTPClient sends a request on it. The server's own certificate is the one a connection
        /// shows; when its key is not pinned, the chain it presents is read on a second handshake
        /// (``TLSProbe``), verified to a trusted root with swift-certificates, and every key on that path counts,
        /// as OkHttp counts every certificate of the cleaned chain.
        struct PinCheck: Sendable {
            let host: String
            let hashes: Set<[UInt8]>
            let settings: TLSSettings

            @Sendable func run(_ channel: any Channel) -> EventLoopFuture<Void> {
                let promise = channel.eventLoop.makePromise(of: Void.self)
                channel.nioSSL_peerCertificate().whenComplete { result in
                    guard case .success(let certificate?) = result,
                        let leaf = try? TLSCertificate(der: certificate.toDERBytes())
                    else {
                        fail(channel, promise, TLSFailure(.pinMismatch, host: host, detail: "no server certificate"))
                        return
                    }
                    if hashes.contains(leaf.publicKeySHA256) { return promise.succeed() }
                    promise.completeWithTask {
                        try await checkChain(from: leaf, port: channel.remoteAddress?.port ?? 443)
                    }
                    promise.futureResult.whenFailure { _ in channel.close(promise: nil) }
                }
                return promise.futureResult
            }

            private func checkChain(from leaf: TLSCertificate, port: Int) async throws {
                let presented = (try? await TLSProbe.presentedChain(host: host, port: port, settings: settings)) ?? []
                // The same server certificate, on a path to a trusted root: only then its issuers' keys count.
                if presented.first == leaf,
                    let path = await ChainDiagnosis.verifiedPath(of: presented, for: host, trust: settings.trust),
                    path.contains(where: { hashes.contains($0.publicKeySHA256) })
                {
                    return
                }
                let seen = presented.first == leaf ? presented : [leaf]
                throw TLSFailure(.pinMismatch, host: host, presentedPins: seen.map(\.publicKeyPin))
            }

            private func fail(_ channel: any Channel, _ promise: EventLoopPromise<Void>, _ error: any Error) {
                // AsyncHTTPClient fails the connection attempt but leaves the channel open.
                channel.close(promise: nil)
                promise.fail(error)
            }
        }

        /// The ``TLSFailure`` that `error` (from sending to `host`:`port`) is, if it is a TLS failure. A chain that
        /// did not verify is read again (``TLSProbe``) to say why: BoringSSL reports only that verification failed.
        static func tlsFailure(
            _ error: any Error, host: String, port: Int, settings: TLSSettings
        ) async -> TLSFailure? {
            if let failure = error as? TLSFailure { return failure }
            if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return TLSFailure(.wrongHost, host: host, detail: String(describing: extra))
            }
            guard let stack = errorStack(error) else {
                return await refusalAfterHandshake(error, host: host, port: port, settings: settings)
            }
            let text = stack.joined(separator: "; ")
            func has(_ code: String) -> Bool { stack.contains { $0.contains(code) } }
            if has("CERTIFICATE_VERIFY_FAILED") {
                let chain = (try? await TLSProbe.presentedChain(host: host, port: port, settings: settings)) ?? []
                let (reason, detail) = ChainDiagnosis.reason(for: chain, trust: settings.trust, now: Date())
                return TLSFailure(reason, host: host, detail: detail)
            }
            if has("WRONG_VERSION_NUMBER") || has("EOF during handshake") || has("HTTP_REQUEST") {
                return TLSFailure(.notTLS, host: host, detail: text)
            }
            if refusesClient(stack, settings: settings) {
                return TLSFailure(.clientCertificateRequired, host: host, detail: text)
            }
            if has("PROTOCOL_VERSION") || has("UNSUPPORTED_PROTOCOL") {
                return TLSFailure(.protocolVersion, host: host, detail: text)
            }
            return TLSFailure(.handshake, host: host, detail: text)
        }

        /// BoringSSL's words for `error`, when it is a TLS error.
        static func errorStack(_ error: any Error) -> [String]? {
            switch error {
            case NIOSSLError.handshakeFailed(.sslError(let errors)), BoringSSLError.sslError(let errors):
                errors.map { reasonName(in: $0.description) }
            case NIOSSLError.handshakeFailed(let other): [String(describing: other)]
            default: nil
            }
        }

        /// BoringSSL's reason in an error's text (`TLSV1_ALERT_PROTOCOL_VERSION` of `Error: 268436526
        /// error:1000042e:SSL routines:OPENSSL_internal:TLSV1_ALERT_PROTOCOL_VERSION at …/tls_record.cc:491`), or the
        /// text as it is when it has none.
        private static func reasonName(in text: String) -> String {
            guard let start = text.range(of: "OPENSSL_internal:")?.upperBound else { return text }
            return String(text[start...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        }

        /// Whether `stack` is a server's refusal of the client: no certificate (TLS 1.3's alert, or TLS 1.2's
        /// handshake failure without an identity), or one it does not accept.
        private static func refusesClient(_ stack: [String], settings: TLSSettings) -> Bool {
            let alerts = [
                "CERTIFICATE_REQUIRED", "ALERT_UNKNOWN_CA", "ALERT_BAD_CERTIFICATE", "ALERT_CERTIFICATE_UNKNOWN",
            ]
            return stack.contains { line in
                alerts.contains { line.contains($0) }
                    || (settings.identity == nil && line.contains("ALERT_HANDSHAKE_FAILURE"))
            }
        }

        /// A TLS 1.3 server refuses a client's certificate (or its absence) after the client's side of the handshake
        /// is done, and AsyncHTTPClient then reports only that the connection closed: a second handshake
        /// (``TLSProbe``) hears the server's alert.
        private static func refusalAfterHandshake(
            _ error: any Error, host: String, port: Int, settings: TLSSettings
        ) async -> TLSFailure? {
            let closed =
                (error as? HTTPClientError) == .remoteConnectionClosed
                || [.eof, .ioOnClosedChannel].contains(error as? ChannelError)
                || { if case NIOSSLError.uncleanShutdown = error { true } else { false } }()
            guard closed else { return nil }
            guard let stack = try? await TLSProbe.refusal(host: host, port: port, settings: settings),
                refusesClient(stack, settings: settings)
            else { return nil }
            return TLSFailure(.clientCertificateRequired, host: host, detail: stack.joined(separator: "; "))
        }
    }
#endif
