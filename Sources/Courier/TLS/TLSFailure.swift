/// Why a TLS connection failed, as a request's ``APIError`` (kind ``APIError/Kind/tls``) carries it in
/// ``APIError/tlsFailure``.
///
/// ```swift
/// do {
///     _ = try await client.send(GetUser(login: "octocat"))
/// } catch let error where error.tlsFailure?.reason == .pinMismatch {
///     report(keysSeen: error.tlsFailure?.presentedPins ?? [])
/// } catch {
///     print(error)  // "GET https://… failed — TLS failed: the server's certificate has expired (…)"
/// }
/// ```
/// A TLS failure is never retried: the same server gives the same certificate again.
public struct TLSFailure: Error, Sendable, CustomStringConvertible {
    /// What was wrong. New reasons may be added; compare with `==` or switch with a `default`.
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case expired, notYetValid, wrongHost, untrustedRoot, selfSigned, incompleteChain, untrusted
            case pinMismatch, clientCertificateRequired, notTLS, protocolVersion, handshake
        }

        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// A certificate of the chain is past its end date.
        public static let expired = Reason(.expired)
        /// A certificate of the chain is not valid yet (or the client's clock is wrong).
        public static let notYetValid = Reason(.notYetValid)
        /// The certificate is valid, but not for the host name (or IP address) the request went to.
        public static let wrongHost = Reason(.wrongHost)
        /// The chain is complete, but its root is not one the client trusts.
        public static let untrustedRoot = Reason(.untrustedRoot)
        /// The server's certificate signs itself and is not trusted.
        public static let selfSigned = Reason(.selfSigned)
        /// The server did not send the intermediate certificates between its own and a trusted root.
        public static let incompleteChain = Reason(.incompleteChain)
        /// The chain did not verify for another reason (a bad signature, a constraint, …).
        public static let untrusted = Reason(.untrusted)
        /// The chain verified, but none of its keys is pinned for the host (``CertificatePin``).
        public static let pinMismatch = Reason(.pinMismatch)
        /// The server requires a client certificate and none was presented, or it refused the one presented.
        public static let clientCertificateRequired = Reason(.clientCertificateRequired)
        /// The server did not answer in TLS: most likely a plain-HTTP port.
        public static let notTLS = Reason(.notTLS)
        /// Client and server have no TLS version in common (see ``TLSSettings/minimumVersion``).
        public static let protocolVersion = Reason(.protocolVersion)
        /// The handshake failed for another reason; ``TLSFailure/detail`` has the TLS library's words.
        public static let handshake = Reason(.handshake)

        /// The reason in words, as error descriptions show it.
        public var description: String {
            switch code {
            case .expired: "the server's certificate has expired"
            case .notYetValid: "the server's certificate is not valid yet"
            case .wrongHost: "the server's certificate is not valid for this host"
            case .untrustedRoot: "the server's certificate chain ends at a root that is not trusted"
            case .selfSigned: "the server's certificate is self-signed and not trusted"
            case .incompleteChain: "the server's certificate chain is incomplete (an intermediate is missing)"
            case .untrusted: "the server's certificate chain is not trusted"
            case .pinMismatch: "no key of the server's certificate chain is pinned for this host"
            case .clientCertificateRequired: "the server requires a client certificate"
            case .notTLS: "the server did not answer in TLS (a plain-HTTP port?)"
            case .protocolVersion: "no TLS version in common with the server"
            case .handshake: "the TLS handshake failed"
            }
        }
    }

    /// What was wrong.
    public let reason: Reason
    /// The host the connection was for.
    public let host: String
    /// For ``Reason/pinMismatch``, the pins (`sha256/…`) of the keys the server presented, its own first;
    /// otherwise empty.
    public let presentedPins: [String]
    /// More detail when there is some: which certificate and date, or the TLS library's message.
    public let detail: String?

    /// A failure for `host`.
    public init(_ reason: Reason, host: String, presentedPins: [String] = [], detail: String? = nil) {
        self.reason = reason
        self.host = host
        self.presentedPins = presentedPins
        self.detail = detail
    }

    /// The reason, the host, and the detail or the pins seen.
    public var description: String {
        var text = "\(reason) (\(host))"
        if !presentedPins.isEmpty { text += "; the server presented \(presentedPins.joined(separator: ", "))" }
        if let detail { text += ": \(detail)" }
        return text
    }
}
