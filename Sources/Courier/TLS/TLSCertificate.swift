import Crypto
public import Foundation
import SwiftASN1
import X509

/// An X.509 certificate: a root to trust (``TLSSettings/Trust``), part of a client identity
/// (``ClientIdentity``), or the certificate whose public key you pin (``CertificatePin``).
///
/// ```swift
/// let roots = try TLSCertificate.certificates(pem: String(contentsOf: caFile, encoding: .utf8))
/// let pin = try TLSCertificate(pem: serverPEM).publicKeyPin  // "sha256/…", for a CertificatePin
/// ```
/// Parsed by swift-certificates when it is made, so a file that is not a certificate fails here, with a
/// ``TLSMaterialError`` that says why, and not in the middle of a handshake.
public struct TLSCertificate: Hashable, Sendable, CustomStringConvertible {
    /// The certificate's DER encoding, as it was read.
    public let derBytes: [UInt8]
    /// The parsed certificate.
    let certificate: Certificate

    /// A certificate from its DER encoding.
    public init(der: some Collection<UInt8>) throws(TLSMaterialError) {
        let bytes = Array(der)
        do {
            certificate = try Certificate(derEncoded: bytes)
        } catch {
            throw TLSMaterialError("the DER data is not an X.509 certificate (\(error))")
        }
        derBytes = bytes
    }

    /// The one certificate in `pem` (a `-----BEGIN CERTIFICATE-----` block); ``certificates(pem:)`` reads
    /// bundles.
    public init(pem: String) throws(TLSMaterialError) {
        let all = try Self.certificates(pem: pem)
        guard all.count == 1 else {
            throw TLSMaterialError("expected one certificate in the PEM text, found \(all.count)")
        }
        self = all[0]
    }

    /// Every certificate in `pem`, in order: a bundle of roots, or a chain leaf first. Blocks of other
    /// kinds (a private key) are skipped; text with no certificate at all is an error.
    public static func certificates(pem: String) throws(TLSMaterialError) -> [TLSCertificate] {
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: pem)
        } catch {
            throw TLSMaterialError("the text is not PEM (\(error))")
        }
        var certificates: [TLSCertificate] = []
        for document in documents where document.discriminator == "CERTIFICATE" {
            certificates.append(try TLSCertificate(der: document.derBytes))
        }
        guard !certificates.isEmpty else { throw TLSMaterialError("no CERTIFICATE block in the PEM text") }
        return certificates
    }

    /// Every certificate in the file at `url`, PEM (one or more) or DER (one).
    public static func certificates(contentsOf url: URL) throws(TLSMaterialError) -> [TLSCertificate] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw TLSMaterialError("could not read \(url.path): \(error.localizedDescription)")
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            return try certificates(pem: text)
        }
        return [try TLSCertificate(der: data)]
    }

    /// The pin of this certificate's public key, as OkHttp and ``CertificatePin`` write it: `sha256/` and the
    /// base64 of the SHA-256 of its DER SubjectPublicKeyInfo. A certificate renewed with the same key keeps it.
    public var publicKeyPin: String { "sha256/" + Data(publicKeySHA256).base64EncodedString() }

    /// The SHA-256 of the certificate's DER encoding: which certificate it is.
    var sha256: [UInt8] { Array(SHA256.hash(data: derBytes)) }

    /// The SHA-256 of the DER SubjectPublicKeyInfo.
    var publicKeySHA256: [UInt8] {
        // Serialised again from the parsed key (swift-certificates' `subjectPublicKeyInfoBytes` holds only the key
        // bits, not the SubjectPublicKeyInfo a pin covers); DER has one encoding, so the bytes are the ones sent.
        var serializer = DER.Serializer()
        // The key was parsed from DER, so serialising it again cannot fail; an empty hash would match no pin.
        guard (try? serializer.serialize(certificate.publicKey)) != nil else { return [] }
        return Array(SHA256.hash(data: serializer.serializedBytes))
    }

    /// The subject's distinguished name, such as `CN=api.example.com,O=Example`.
    public var subject: String { certificate.subject.description }
    /// The issuer's distinguished name.
    public var issuer: String { certificate.issuer.description }
    /// The start of the validity period.
    public var notValidBefore: Date { certificate.notValidBefore }
    /// The end of the validity period.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// The subject and the public key's pin.
    public var description: String { "\(subject) (\(publicKeyPin))" }

    /// Whether both are the same certificate (the same DER bytes).
    public static func == (lhs: TLSCertificate, rhs: TLSCertificate) -> Bool { lhs.derBytes == rhs.derBytes }
    /// Hashes the DER bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(derBytes) }
}

/// Certificate, key or pin material that could not be used, and why: thrown when a ``TLSCertificate``,
/// ``ClientIdentity`` or ``CertificatePin`` is made, so bad material fails before any request.
public struct TLSMaterialError: Error, Sendable, CustomStringConvertible {
    /// What was wrong, in words.
    public let description: String

    init(_ description: String) { self.description = description }
}
