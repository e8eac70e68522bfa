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
    static let current = TestCatalogue.load(TLSCatalogue.self, named: "COURIER_TLS_CATALOGUE")

    /// Whether the TLS tests run: when the catalogue is there, and always on CI, where a missing one must fail.
    static let available = TestCatalogue.runs(current)

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

/// How the tests find what `scripts/test` started for them: a `catalogue.json` named by an environment variable.
enum TestCatalogue {
    /// The catalogue the variable `name` points to, or `nil` when it names none that reads as `T`.
    static func load<T: Decodable>(_ type: T.Type, named name: String) -> T? {
        guard let path = ProcessInfo.processInfo.environment[name],
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? JSONDecoder().decode(T.self, from: data)
    }

    /// Whether tests that need `catalogue` run: when it is there, and always on CI, where a missing one must fail.
    static func runs(_ catalogue: (some Any)?) -> Bool {
        catalogue != nil || ProcessInfo.processInfo.environment["CI"] != nil
    }
}
