import Courier
import Foundation

/// The local "badssl" catalogue of real TLS servers (nginx and hypercorn) that `scripts/test` starts with
/// `scripts/servers/tls_servers.py`, and the certificates it made for them, read from the `catalogue.json`
/// that `COURIER_TLS_CATALOGUE` names.
struct TLSCatalogue: Decodable, Sendable {
    struct Files: Decodable, Sendable {
        let pem: String
        let der: String
    }

    struct Client: Decodable, Sendable {
        let chain_pem: String
        let key_pem: String
        let cert_der: String
        let key_der: String
        let p12: String
        let p12_passphrase: String
    }

    struct Server: Decodable, Sendable {
        let url: String
        /// The server's access log: one line per request that reached it.
        let log: String
    }

    /// The good server certificate's chain and key, for the test servers the tests start over TLS.
    struct ServerIdentity: Decodable, Sendable {
        let chain_pem: String
        let key_pem: String
    }

    let ca: Files
    let intermediate: Files
    let other_ca: Files
    let client: Client
    let server_identity: ServerIdentity
    let spki_sha256: [String: String]
    let servers: [String: Server]

    /// The catalogue `scripts/test` started, or `nil` when it did not (tests are then skipped, except on CI).
    static let current: TLSCatalogue? = {
        guard let path = ProcessInfo.processInfo.environment["COURIER_TLS_CATALOGUE"],
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? JSONDecoder().decode(TLSCatalogue.self, from: data)
    }()

    /// Whether the TLS tests run: when the catalogue is there, and always on CI, where a missing one must fail.
    static let available = current != nil || ProcessInfo.processInfo.environment["CI"] != nil

    /// The catalogue, or a test failure saying how to get one.
    static func required() throws -> TLSCatalogue {
        guard let current else {
            throw CatalogueMissing()
        }
        return current
    }

    struct CatalogueMissing: Error, CustomStringConvertible {
        var description: String {
            "COURIER_TLS_CATALOGUE does not name a readable catalogue.json: run the tests with scripts/test"
        }
    }

    /// The https URL of the server named `name` (`plain` too: it is the server that does not speak TLS).
    func url(_ name: String) throws -> URL {
        guard let server = servers[name],
            let url = URL(string: server.url.replacingOccurrences(of: "http:", with: "https:"))
        else { throw CatalogueMissing() }
        return url
    }

    /// Whether a request whose target contains `marker` reached the server named `name`, from its access log.
    func received(_ marker: String, server name: String) -> Bool {
        guard let log = servers[name]?.log, let text = try? String(contentsOfFile: log, encoding: .utf8) else {
            return false
        }
        return text.contains(marker)
    }

    /// The test root CA, which issued every good certificate.
    func rootCA() throws -> [TLSCertificate] {
        try TLSCertificate.certificates(contentsOf: URL(fileURLWithPath: ca.pem))
    }

    /// The client identity from its PEM chain and key.
    func pemIdentity() throws -> ClientIdentity {
        try ClientIdentity(
            certificateChain: TLSCertificate.certificates(contentsOf: URL(fileURLWithPath: client.chain_pem)),
            privateKeyPEM: String(contentsOfFile: client.key_pem, encoding: .utf8))
    }

    /// The client identity from its PKCS#12 archive.
    func pkcs12Identity() throws -> ClientIdentity {
        try ClientIdentity(
            pkcs12: Data(contentsOf: URL(fileURLWithPath: client.p12)), passphrase: client.p12_passphrase)
    }
}
