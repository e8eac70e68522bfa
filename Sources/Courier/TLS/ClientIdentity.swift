public import Foundation
import X509

#if canImport(NIOSSL)
    import NIOSSL
#endif

/// The certificate and private key a client presents to a server that asks for one (mutual TLS).
///
/// ```swift
/// let identity = try ClientIdentity(
///     certificateChain: TLSCertificate.certificates(pem: chainPEM), privateKeyPEM: keyPEM)
/// let fromKeychainExport = try ClientIdentity(pkcs12: p12Data, passphrase: passphrase)
/// ```
/// The key is a secret: an identity's `description` shows only the certificate's subject, never the key
/// or the passphrase.
public struct ClientIdentity: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// How the identity was given.
    enum Material: Hashable, Sendable {
        /// A chain (leaf first) and its private key's PEM or DER bytes.
        case keyPair(chain: [TLSCertificate], key: [UInt8], isPEM: Bool)
        /// A PKCS#12 archive and its passphrase.
        case pkcs12([UInt8], passphrase: String)
    }

    let material: Material
    /// The identity's own certificate, when it could be read (always, except for a PKCS#12 archive where
    /// Courier has no PKCS#12 reader: Apple platforms without SwiftNIO, where the transport reads it).
    public let certificate: TLSCertificate?

    /// An identity from `certificateChain` (the client's certificate first, then any intermediates) and its
    /// private key in PEM (PKCS#8, or the SEC1 or PKCS#1 form; EC or RSA). The key must belong to the first
    /// certificate.
    public init(certificateChain: [TLSCertificate], privateKeyPEM: String) throws(TLSMaterialError) {
        let key: Certificate.PrivateKey
        do {
            key = try Certificate.PrivateKey(pemEncoded: privateKeyPEM)
        } catch {
            throw TLSMaterialError("the private key PEM could not be read (\(type(of: error)))")
        }
        try self.init(certificateChain: certificateChain, key: key, bytes: Array(privateKeyPEM.utf8), isPEM: true)
    }

    /// An identity from `certificateChain` and its private key's DER encoding (PKCS#8).
    public init(certificateChain: [TLSCertificate], privateKeyDER: Data) throws(TLSMaterialError) {
        let key: Certificate.PrivateKey
        do {
            key = try Certificate.PrivateKey(derBytes: Array(privateKeyDER))
        } catch {
            throw TLSMaterialError("the private key DER could not be read (\(type(of: error)))")
        }
        try self.init(certificateChain: certificateChain, key: key, bytes: Array(privateKeyDER), isPEM: false)
    }

    private init(
        certificateChain: [TLSCertificate], key: Certificate.PrivateKey, bytes: [UInt8], isPEM: Bool
    ) throws(TLSMaterialError) {
        guard let leaf = certificateChain.first else {
            throw TLSMaterialError("a client identity needs its certificate: the chain is empty")
        }
        // The error text never shows the key: only which certificate it did not match.
        guard key.publicKey == leaf.certificate.publicKey else {
            throw TLSMaterialError("the private key does not belong to the certificate \(leaf.subject)")
        }
        material = .keyPair(chain: certificateChain, key: bytes, isPEM: isPEM)
        certificate = leaf
    }

    /// An identity from a PKCS#12 archive (`.p12`, `.pfx`) holding the certificate, its chain and the key,
    /// protected by `passphrase`.
    public init(pkcs12: Data, passphrase: String) throws(TLSMaterialError) {
        let bytes = Array(pkcs12)
        #if canImport(NIOSSL)
            let bundle: NIOSSLPKCS12Bundle
            do {
                bundle = try NIOSSLPKCS12Bundle(buffer: bytes, passphrase: Array(passphrase.utf8))
            } catch {
                // BoringSSL's error stack says nothing secret; a wrong passphrase and a damaged file read the same.
                throw TLSMaterialError("the PKCS#12 archive could not be opened: a wrong passphrase or damaged data")
            }
            certificate = bundle.certificateChain.first.flatMap { try? TLSCertificate(der: $0.toDERBytes()) }
        #else
            certificate = nil
        #endif
        material = .pkcs12(bytes, passphrase: passphrase)
    }

    /// The certificate's subject; never the key or the passphrase.
    public var description: String {
        "ClientIdentity(\(certificate?.subject ?? "PKCS#12"))"
    }

    /// Only the certificate, so `dump` and debuggers never show the key or the passphrase.
    public var customMirror: Mirror { Mirror(self, children: ["certificate": certificate as Any]) }
}
