import Foundation

/// The public keys a host's certificate chain must contain one of, as OkHttp's `CertificatePinner` pins:
/// the SHA-256 of a certificate's DER SubjectPublicKeyInfo, written `sha256/` and base64.
///
/// ```swift
/// let pin = try CertificatePin(
///     host: "*.example.com",
///     pins: [
///         "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",  // the intermediate CA's key
///         "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",  // a backup key, not yet in use
///     ])
/// ```
/// A connection to a matching host passes when any certificate of its verified chain has one of the pinned
/// keys; otherwise it fails before a byte of the request is sent, with ``TLSFailure/Reason/pinMismatch``,
/// which names the host and the keys the server presented (hashes of public keys are not secrets), and is
/// never retried. Pinning adds to certificate verification, never replaces it.
///
/// Host patterns: `api.example.com` matches that host only; `*.example.com` one label before
/// `example.com` (`api.example.com`, not `example.com` or `a.b.example.com`); `**.example.com` any number,
/// `example.com` itself included. An IP address matches itself (an IPv6 address with or without brackets).
/// Matching ignores case and a final dot (`api.example.com.`). Several pins that match a host all count.
public struct CertificatePin: Hashable, Sendable {
    /// The host pattern, lowercased, without a final dot or an IPv6 address's brackets.
    public let hostPattern: String
    /// The pinned keys' SHA-256 hashes, as given (each `sha256/` and base64).
    public let pins: [String]
    /// The hashes' bytes.
    let hashes: Set<[UInt8]>

    /// Pins `pins` for the hosts `host` matches. Each pin is `sha256/` and the base64 of 32 bytes (a bare base64
    /// value is read the same way); one pin is enough, two or more let you rotate keys without an app update.
    public init(host: String, pins: [String]) throws(TLSMaterialError) {
        let pattern = Self.normalized(host)
        let labels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let wildcard = labels.first == "*" || labels.first == "**"
        let isAddress = IPAddressText.isAddress(pattern)
        guard !pattern.isEmpty, labels.count >= 2 || !wildcard,
            isAddress || labels.dropFirst(wildcard ? 1 : 0).allSatisfy(Self.isLabel)
        else {
            throw TLSMaterialError(
                "'\(host)' is not a host pattern (a host, '*.' or '**.' and a domain: '*.example.com')")
        }
        guard !pins.isEmpty else { throw TLSMaterialError("no pins for '\(host)': give at least one") }
        var hashes: Set<[UInt8]> = []
        for pin in pins {
            let base64 = pin.hasPrefix("sha256/") ? String(pin.dropFirst("sha256/".count)) : pin
            guard let hash = Data(base64Encoded: base64), hash.count == 32 else {
                throw TLSMaterialError(
                    "'\(pin)' is not a SHA-256 pin ('sha256/' and the base64 of 32 bytes; TLSCertificate.publicKeyPin makes one)"
                )
            }
            hashes.insert(Array(hash))
        }
        hostPattern = pattern
        self.pins = pins
        self.hashes = hashes
    }

    /// Whether the pattern matches `host` (a name or an IP address, as in the request's URL).
    public func matches(host: String) -> Bool {
        let host = Self.normalized(host)
        if hostPattern.hasPrefix("**.") {
            let domain = hostPattern.dropFirst(3)
            return host == domain || host.hasSuffix("." + domain)
        }
        if hostPattern.hasPrefix("*.") {
            let domain = hostPattern.dropFirst(2)
            guard host.hasSuffix("." + domain) else { return false }
            let label = host.dropLast(domain.count + 1)
            return !label.isEmpty && !label.contains(".")
        }
        return host == hostPattern
    }
}

extension CertificatePin {
    /// `host` as pins compare it: lowercased, without a final dot (a TLS library ignores it when it checks the
    /// name) or the brackets of an IPv6 address.
    static func normalized(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    /// Whether `label` is a DNS label of a host pattern: letters, digits, `-` and `_`, not empty.
    private static func isLabel(_ label: Substring) -> Bool {
        !label.isEmpty && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

extension Collection<CertificatePin> {
    /// The hashes pinned for `host` by every pattern that matches it, or `nil` when none does.
    func hashes(for host: String) -> Set<[UInt8]>? {
        var found: Set<[UInt8]>?
        for pin in self where pin.matches(host: host) {
            found = (found ?? []).union(pin.hashes)
        }
        return found
    }
}
