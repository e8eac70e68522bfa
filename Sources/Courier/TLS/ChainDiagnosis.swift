import Foundation
import SwiftASN1
import X509

/// What Courier reads from a certificate chain a server presented, with swift-certificates: why it failed
/// verification (TLS libraries say only "verify failed"), and the path from it to a trusted root that pins are
/// checked against.
enum ChainDiagnosis {
    /// Why `chain` (leaf first, as presented) did not verify against `trust` at `now`, with the certificate
    /// concerned.
    static func reason(
        for chain: [TLSCertificate], trust: TLSSettings.Trust, now: Date
    ) -> (reason: TLSFailure.Reason, detail: String?) {
        guard let leaf = chain.first else { return (.untrusted, "the server presented no certificate") }
        let roots = trust.certificates
        var path = [leaf]
        var found: (reason: TLSFailure.Reason, detail: String?)?
        // Up the chain, one issuer at a time (a chain longer than ten is not one a server sends), noting why it
        // does not reach a trusted root.
        for depth in 0..<10 {
            let current = path[path.count - 1]
            if roots.contains(current) { break }
            if isSelfIssued(current) {
                found =
                    depth == 0
                    ? (.selfSigned, current.subject) : (.untrustedRoot, "the chain ends at \(current.subject)")
                break
            }
            if let root = roots.first(where: { issued(current, by: $0) }) {
                path.append(root)
                break
            }
            guard let issuer = chain.first(where: { $0 != current && issued(current, by: $0) }) else {
                // The issuer was not sent and is not trusted. Under a CA certificate it is most likely the root (a
                // server need not send that); under the server's own, the intermediate the server should send.
                found =
                    depth > 0 && isAuthority(current)
                    ? (.untrustedRoot, "\(current.subject) is issued by \(current.issuer), which is not trusted")
                    : (
                        .incompleteChain,
                        "no certificate of its issuer \(current.issuer) was sent, and no trusted root has that name"
                    )
                break
            }
            path.append(issuer)
        }
        // A date on the path comes first; certificates the server sent along outside it don't count.
        for certificate in path {
            if now > certificate.notValidAfter {
                return (.expired, "\(certificate.subject) expired \(certificate.notValidAfter.formatted(.iso8601))")
            }
            if now < certificate.notValidBefore {
                return (
                    .notYetValid,
                    "\(certificate.subject) is valid from \(certificate.notValidBefore.formatted(.iso8601))"
                )
            }
        }
        return found ?? (.untrusted, nil)
    }

    /// The verified path from `chain`'s leaf, valid for `host`, to a root `trust` holds, leaf first, or `nil` when
    /// there is none (on Apple platforms the system's roots are not readable here, so only roots you add count).
    static func verifiedPath(of chain: [TLSCertificate], for host: String, trust: TLSSettings.Trust) async
        -> [TLSCertificate]?
    {
        guard let leaf = chain.first else { return nil }
        let added = trust.certificates.map(\.certificate)
        let roots: CertificateStore
        switch trust {
        case .only: roots = CertificateStore(added)
        case .system, .systemAnd: roots = CertificateStore.systemTrustRoots.appending(contentsOf: added)
        }
        let isAddress = IPAddressText.isAddress(host)
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy()
            ServerAuthenticationPolicy()
            ServerIdentityPolicy(serverHostname: isAddress ? nil : host, serverIP: isAddress ? host : nil)
        }
        let result = await verifier.validate(
            leaf: leaf.certificate, intermediates: CertificateStore(chain.dropFirst().map(\.certificate)))
        guard case .validCertificate(let path) = result else { return nil }
        return path.compactMap { try? TLSCertificate(der: certificateBytes($0)) }
    }

    private static func isAuthority(_ certificate: TLSCertificate) -> Bool {
        guard case .isCertificateAuthority = try? certificate.certificate.extensions.basicConstraints else {
            return false
        }
        return true
    }

    private static func isSelfIssued(_ certificate: TLSCertificate) -> Bool {
        certificate.certificate.subject == certificate.certificate.issuer && issued(certificate, by: certificate)
    }

    /// Whether `issuer` is named as `certificate`'s issuer and signed it.
    private static func issued(_ certificate: TLSCertificate, by issuer: TLSCertificate) -> Bool {
        certificate.certificate.issuer == issuer.certificate.subject
            && issuer.certificate.publicKey.isValidSignature(
                certificate.certificate.signature, for: certificate.certificate)
    }

    private static func certificateBytes(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}

/// Whether text is an IP address (no SNI is sent for one).
enum IPAddressText {
    static func isAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }
}

/// A leaf's extended key usage, which swift-certificates' policies leave unchecked (a critical one fails every
/// chain): when present, it must allow TLS server authentication, as BoringSSL requires of a server.
private struct ServerAuthenticationPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [.X509ExtensionID.extendedKeyUsage]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        let usages: ExtendedKeyUsage?
        do {
            usages = try chain.leaf.extensions.extendedKeyUsage
        } catch {
            return .failsToMeetPolicy(reason: "the leaf's extended key usage cannot be read")
        }
        guard let usages, !usages.contains(.serverAuth), !usages.contains(.any) else { return .meetsPolicy }
        return .failsToMeetPolicy(reason: "the leaf's extended key usage does not allow TLS servers")
    }
}
