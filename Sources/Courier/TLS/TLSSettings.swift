import Foundation

/// How a transport's TLS connections are made and checked: which roots it trusts, which keys it pins, the
/// identity it presents, and the lowest TLS version it accepts. Written once, the same for every transport
/// Courier ships.
///
/// ```swift
/// let tls = TLSSettings(
///     trust: .only(try TLSCertificate.certificates(contentsOf: companyCA)),
///     pins: [try CertificatePin(host: "**.example.com", pins: [intermediatePin, backupPin])],
///     identity: try ClientIdentity(pkcs12: p12, passphrase: passphrase))
/// let client = APIClient(baseURL: url, transport: try DefaultTransport.make(tls: tls))
/// ```
/// Over AsyncHTTPClient (``HTTPClientTransport``) every setting holds. Over URLSession on Linux,
/// FoundationNetworking offers no way to change trust or present a certificate: a request that needs a
/// setting it cannot honour fails with ``APIError/Kind/unsupported``, never with weaker checks
/// (<doc:TLSAndHTTP2> has the table).
public struct TLSSettings: Hashable, Sendable {
    /// The roots a server's certificate chain must lead to.
    public enum Trust: Hashable, Sendable {
        /// The system's trusted roots (on Linux, `/etc/ssl/certs/ca-certificates.crt`).
        case system
        /// The system's roots and these, such as a company CA beside the public ones.
        case systemAnd([TLSCertificate])
        /// Only these roots: a private CA, and no public one.
        case only([TLSCertificate])

        /// The roots added to or replacing the system's.
        var certificates: [TLSCertificate] {
            switch self {
            case .system: []
            case .systemAnd(let roots), .only(let roots): roots
            }
        }
    }

    /// A TLS protocol version.
    public enum Version: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
        /// TLS 1.2 (RFC 5246).
        case tls12 = 12
        /// TLS 1.3 (RFC 8446).
        case tls13 = 13

        /// `TLS 1.2` or `TLS 1.3`.
        public var description: String { self == .tls12 ? "TLS 1.2" : "TLS 1.3" }

        /// Whether `lhs` is an older version than `rhs`.
        public static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The roots a server's chain must lead to; the system's by default.
    public var trust: Trust
    /// Public keys that hosts' chains must contain; none by default (see ``CertificatePin``).
    public var pins: [CertificatePin]
    /// The certificate and key presented to servers that ask for one (mutual TLS); none by default.
    public var identity: ClientIdentity?
    /// The lowest TLS version accepted; TLS 1.2 by default (AsyncHTTPClient's own default still allows 1.0).
    public var minimumVersion: Version

    /// Settings with the given parts; each default is the system's trust and no more.
    public init(
        trust: Trust = .system, pins: [CertificatePin] = [], identity: ClientIdentity? = nil,
        minimumVersion: Version = .tls12
    ) {
        self.trust = trust
        self.pins = pins
        self.identity = identity
        self.minimumVersion = minimumVersion
    }

    /// The system's roots, no pins, no client identity, TLS 1.2 or later: what a transport uses when you
    /// give it no settings.
    public static let `default` = TLSSettings()

    /// The settings every connection shares, without the pins (a transport keeps one connection pool per
    /// set of pins).
    var withoutPins: TLSSettings {
        var settings = self
        settings.pins = []
        return settings
    }
}

extension URL {
    /// Whether the scheme is `https`, in any case (AsyncHTTPClient and URLSession accept `HTTPS:` too, so a
    /// check for TLS settings must as well).
    var isHTTPS: Bool { scheme?.lowercased() == "https" }
}
