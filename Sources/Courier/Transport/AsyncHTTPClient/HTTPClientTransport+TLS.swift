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
        /// What a transport made with ``TLSSettings`` keeps: one reference, so the transport stays two words and
        /// a request without pins checks one optional.
        final class TLSRouting: Sendable {
            /// The settings, pins included.
            let settings: TLSSettings
            /// The client of the settings without pins: the one requests to hosts without pins use.
            let client: HTTPClient
            /// Whether the settings have pins.
            private let hasPins: Bool
            /// The clients of the hosts requests went to, by normalised host, when the settings have pins.
            private let pinnedClients = Mutex<[String: HTTPClient]>([:])

            init(settings: TLSSettings) throws(TLSMaterialError) {
                self.settings = settings
                client =
                    settings.withoutPins == .default
                    ? HTTPClientTransport.sharedClient : try HTTPClientTransport.tlsClient(for: settings.withoutPins)
                hasPins = !settings.pins.isEmpty
            }

            /// The client for a request to `baseURL`: for an https host with pins, one whose connections check
            /// them; otherwise ``client``.
            func client(for baseURL: URL) throws(TLSMaterialError) -> HTTPClient {
                guard hasPins, baseURL.isHTTPS, let host = baseURL.host.map(CertificatePin.normalized)
                else { return client }
                if let known = pinnedClients.withLock({ $0[host] }) { return known }
                var chosen = client
                if let hashes = settings.pins.hashes(for: host) {
                    chosen = try HTTPClientTransport.tlsClient(for: settings.withoutPins, pinning: (host, hashes))
                }
                pinnedClients.withLock { $0[host] = chosen }
                return chosen
            }
        }

        /// The `HTTPClient`s made for TLS settings: one per distinct settings (and pinned host with its pins),
        /// shared by every transport made with them, living as long as the process like ``sharedClient``. One app
        /// has a handful; settings made anew per tenant or per rotated client certificate add one each.
        private static let tlsClients = Mutex<[TLSClientKey: HTTPClient]>([:])

        private struct TLSClientKey: Hashable {
            let settings: TLSSettings
            /// The host whose pins its connections check, with the pins, or `nil`.
            let pinnedHost: String?
            let pins: Set<[UInt8]>?
        }

        /// The client for `settings` (without pins) whose connections check `pinning`'s pins for its host, when
        /// given.
        static func tlsClient(
            for settings: TLSSettings, pinning: (host: String, hashes: Set<[UInt8]>)? = nil
        ) throws(TLSMaterialError) -> HTTPClient {
            let key = TLSClientKey(settings: settings, pinnedHost: pinning?.host, pins: pinning?.hashes)
            if let client = tlsClients.withLock({ $0[key] }) { return client }
            var configuration = sharedConfiguration
            configuration.tlsConfiguration = try settings.nioConfiguration()
            if let pinning {
                let check = try PinCheck(host: pinning.host, hashes: pinning.hashes, settings: settings)
                configuration.http1_1ConnectionDebugInitializer = check.run
                configuration.http2ConnectionDebugInitializer = { channel in
                    HTTP2FrameSplitter.install(on: channel).flatMap { check.run(channel) }
                }
            }
            return tlsClients.withLock { clients in
                if let client = clients[key] { return client }
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                clients[key] = client
                return client
            }
        }
    }
#endif
