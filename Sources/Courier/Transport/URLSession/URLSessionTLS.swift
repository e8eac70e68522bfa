import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What URLSession can do of a transport's ``TLSSettings``, and how its TLS failures read.
///
/// FoundationNetworking (Linux, over libcurl) has no server-trust or client-certificate challenge, no setting
/// for a CA file or a minimum version, and no pinning (swift-corelibs-foundation 6.3, measured): it trusts
/// the system's roots and nothing else, and OpenSSL's defaults already refuse TLS 1.0 and 1.1. A request over
/// https whose settings need more fails with ``APIError/Kind/unsupported``, so settings a user wrote are never
/// quietly replaced by weaker checks.
enum URLSessionTLS {
    /// Why URLSession on this platform cannot honour `settings`, or `nil` when it can.
    static func unsupported(_ settings: TLSSettings) -> TransportUnsupported? {
        var missing: [String] = []
        if settings.trust != .system { missing.append("trusting other roots") }
        if !settings.pins.isEmpty { missing.append("certificate pins") }
        if settings.identity != nil { missing.append("a client certificate") }
        #if canImport(FoundationNetworking)
            if settings.minimumVersion > .tls12 { missing.append("a minimum of \(settings.minimumVersion)") }
            let transport = "URLSession on Linux (FoundationNetworking) cannot apply"
        #else
            // Not written yet: the session delegate's server-trust and client-certificate challenges. The minimum
            // version is the session configuration's.
            let transport = "Courier does not yet apply, over URLSession on Apple platforms,"
        #endif
        guard !missing.isEmpty else { return nil }
        return TransportUnsupported(
            "\(transport) these TLS settings: \(missing.joined(separator: ", ")); use HTTPClientTransport")
    }

    /// The ``TLSFailure`` `error` is, if URLSession reports a TLS failure. On Linux every one is
    /// `URLError(.unknown)` with libcurl's message, which says which check failed.
    static func failure(_ error: any Error, host: String) -> TLSFailure? {
        guard let error = error as? URLError else { return nil }
        let text = error.localizedDescription
        // Apple platforms say which in the code.
        let codes: [URLError.Code: TLSFailure.Reason] = [
            .secureConnectionFailed: .handshake, .serverCertificateHasBadDate: .expired,
            .serverCertificateUntrusted: .untrusted, .serverCertificateHasUnknownRoot: .untrustedRoot,
            .serverCertificateNotYetValid: .notYetValid, .clientCertificateRejected: .clientCertificateRequired,
            .clientCertificateRequired: .clientCertificateRequired,
        ]
        if let reason = codes[error.code] { return TLSFailure(reason, host: host, detail: text) }
        guard error.code == .unknown else { return nil }
        let reasons: [(String, TLSFailure.Reason)] = [
            ("certificate has expired", .expired),
            ("certificate is not yet valid", .notYetValid),
            ("self-signed certificate in certificate chain", .untrustedRoot),
            ("self-signed certificate", .selfSigned),
            ("self signed certificate", .selfSigned),
            ("unable to get local issuer certificate", .incompleteChain),
            ("unable to verify the first certificate", .incompleteChain),
            ("no alternative certificate subject name matches", .wrongHost),
            ("does not match target host name", .wrongHost),
            ("wrong version number", .notTLS),
            ("alert certificate required", .clientCertificateRequired),
            ("unsupported protocol", .protocolVersion),
            ("alert protocol version", .protocolVersion),
            ("SSL certificate problem", .untrusted),
        ]
        guard let reason = reasons.first(where: { text.contains($0.0) })?.1 else { return nil }
        return TLSFailure(reason, host: host, detail: text)
    }
}

/// A request needs something its transport cannot do; ``APIError/Kind/unsupported``, never retried.
struct TransportUnsupported: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
