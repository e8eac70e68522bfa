import Courier
import Foundation

/// The listings of the TLS symbols' comments (`TLSSettings`, `TLSCertificate`, `CertificatePin`,
/// `ClientIdentity`, `TLSFailure`), compiled.
enum TLSSymbolListings {
    typealias GetUser = SymbolListingTypes.GetUser

    static func certificates(caFile: URL, serverPEM: String) throws -> ([TLSCertificate], String) {
        // BEGIN DOCC: TLSCertificate
        let roots = try TLSCertificate.certificates(pem: String(contentsOf: caFile, encoding: .utf8))
        let pin = try TLSCertificate(pem: serverPEM).publicKeyPin  // "sha256/…", for a CertificatePin
        // END DOCC: TLSCertificate
        return (roots, pin)
    }

    static func pin() throws -> CertificatePin {
        // BEGIN DOCC: CertificatePin
        let pin = try CertificatePin(
            host: "*.example.com",
            pins: [
                "sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",  // the intermediate CA's key
                "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg=",  // a backup key, not yet in use
            ])
        // END DOCC: CertificatePin
        return pin
    }

    static func identities(chainPEM: String, keyPEM: String, p12Data: Data, passphrase: String) throws
        -> [ClientIdentity]
    {
        // BEGIN DOCC: ClientIdentity
        let identity = try ClientIdentity(
            certificateChain: TLSCertificate.certificates(pem: chainPEM), privateKeyPEM: keyPEM)
        let fromKeychainExport = try ClientIdentity(pkcs12: p12Data, passphrase: passphrase)
        // END DOCC: ClientIdentity
        return [identity, fromKeychainExport]
    }

    static func settings(
        url: URL, companyCA: URL, intermediatePin: String, backupPin: String, p12: Data, passphrase: String
    ) throws -> APIClient {
        // BEGIN DOCC: TLSSettings
        let tls = TLSSettings(
            trust: .only(try TLSCertificate.certificates(contentsOf: companyCA)),
            pins: [try CertificatePin(host: "**.example.com", pins: [intermediatePin, backupPin])],
            identity: try ClientIdentity(pkcs12: p12, passphrase: passphrase))
        let client = APIClient(baseURL: url, transport: try DefaultTransport.make(tls: tls))
        // END DOCC: TLSSettings
        return client
    }

    static func report(keysSeen: [String]) {}

    static func failure(client: APIClient) async throws {
        // BEGIN DOCC: TLSFailure
        do {
            _ = try await client.send(GetUser(login: "octocat"))
        } catch let error where error.tlsFailure?.reason == .pinMismatch {
            report(keysSeen: error.tlsFailure?.presentedPins ?? [])
        } catch {
            print(error)  // "GET https://… failed — TLS failed: the server's certificate has expired (…)"
        }
        // END DOCC: TLSFailure
    }

    /// The article's four settings, one listing each.
    static func eachSetting(
        url: URL, companyCA: URL, leafPin: String, backupPin: String, chainPEM: String, keyPEM: String
    ) throws -> [APIClient] {
        // BEGIN DOCC: TLS trust
        let companyRoots = try TLSCertificate.certificates(contentsOf: companyCA)
        let internalAPI = APIClient(
            baseURL: url, transport: try HTTPClientTransport(tls: TLSSettings(trust: .only(companyRoots))))
        // END DOCC: TLS trust
        // BEGIN DOCC: TLS pins
        let pinned = TLSSettings(pins: [try CertificatePin(host: "api.example.com", pins: [leafPin, backupPin])])
        let pinnedAPI = APIClient(baseURL: url, transport: try HTTPClientTransport(tls: pinned))
        // END DOCC: TLS pins
        // BEGIN DOCC: TLS identity
        let identity = try ClientIdentity(
            certificateChain: TLSCertificate.certificates(pem: chainPEM), privateKeyPEM: keyPEM)
        let mutualTLSAPI = APIClient(
            baseURL: url, transport: try HTTPClientTransport(tls: TLSSettings(identity: identity)))
        // END DOCC: TLS identity
        // BEGIN DOCC: TLS version
        let modernOnly = TLSSettings(minimumVersion: .tls13)
        let modernAPI = APIClient(baseURL: url, transport: try HTTPClientTransport(tls: modernOnly))
        // END DOCC: TLS version
        return [internalAPI, pinnedAPI, mutualTLSAPI, modernAPI]
    }

    static func httpProtocol(client: APIClient) async throws {
        // BEGIN DOCC: HTTPProtocol
        let response = try await client.response(GetUser(login: "octocat"))
        print(response.httpProtocol ?? "unknown")  // "HTTP/2" over TLS where the server offers it
        // END DOCC: HTTPProtocol
    }
}
