#if canImport(AsyncHTTPClient)
    import Foundation
    import NIOCore
    import NIOSSL
    import Synchronization

    extension HTTPClientTransport {
        /// Checks a new connection to a pinned host against its pins, after the handshake verified the chain and
        /// before AsyncHTTPClient sends a request on it (its connection initialisers, HTTP/1.1 and HTTP/2 alike).
        ///
        /// A connection shows only the server's own certificate. When its key is pinned, that is all. When it is
        /// not, the chain the server presents is read on a second handshake to the same address (``TLSProbe``),
        /// must start with the same certificate, and is verified to a trusted root with swift-certificates; every
        /// key on that verified path counts, as OkHttp counts the cleaned chain (a certificate merely sent along
        /// never does). A server certificate that passed this way is remembered, so later connections presenting
        /// it need no second handshake.
        final class PinCheck: Sendable {
            let host: String
            let hashes: Set<[UInt8]>
            let settings: TLSSettings
            private let probe: TLSProbe
            /// SHA-256 of the server certificates whose verified chains held a pinned key.
            private let passed = Mutex<Set<[UInt8]>>([])

            init(host: String, hashes: Set<[UInt8]>, settings: TLSSettings) throws(TLSMaterialError) {
                self.host = host
                self.hashes = hashes
                self.settings = settings
                probe = try TLSProbe(settings: settings)
            }

            @Sendable func run(_ channel: any Channel) -> EventLoopFuture<Void> {
                let promise = channel.eventLoop.makePromise(of: Void.self)
                // AsyncHTTPClient fails the connection attempt but leaves the channel open.
                promise.futureResult.whenFailure { _ in channel.close(promise: nil) }
                channel.nioSSL_peerCertificate().whenComplete { result in
                    guard case .success(let certificate?) = result,
                        let leaf = try? TLSCertificate(der: certificate.toDERBytes())
                    else {
                        promise.fail(TLSFailure(.pinMismatch, host: self.host, detail: "no server certificate"))
                        return
                    }
                    if self.hashes.contains(leaf.publicKeySHA256) { return promise.succeed() }
                    let fingerprint = leaf.sha256
                    if self.passed.withLock({ $0.contains(fingerprint) }) { return promise.succeed() }
                    let address = channel.remoteAddress
                    promise.completeWithTask { try await self.checkChain(from: leaf, at: address) }
                }
                return promise.futureResult
            }

            private func checkChain(from leaf: TLSCertificate, at address: SocketAddress?) async throws {
                let presented = (try? await probe.presentedChain(host: host, address: address)) ?? []
                // The same server certificate, on a path to a trusted root: only then its issuers' keys count.
                if presented.first == leaf,
                    let path = await ChainDiagnosis.verifiedPath(of: presented, for: host, trust: settings.trust),
                    path.contains(where: { hashes.contains($0.publicKeySHA256) })
                {
                    passed.withLock { _ = $0.insert(leaf.sha256) }
                    return
                }
                let seen = presented.first == leaf ? presented : [leaf]
                throw TLSFailure(.pinMismatch, host: host, presentedPins: seen.map(\.publicKeyPin))
            }
        }
    }
#endif
