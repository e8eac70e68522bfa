import Courier
import Foundation
import Testing

/// Pins (OkHttp's rules: any key of the verified chain) and client identities (mutual TLS) against the
/// catalogue's real servers, over ``HTTPClientTransport``.
@Suite(.enabled(if: TLSCatalogue.available), .timeLimit(.minutes(2)))
struct PinningAndIdentityTests {
    static let wrongPin = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()

    static func settings(pinning pins: [String], host: String = "127.0.0.1") throws -> TLSSettings {
        TLSSettings(
            trust: .only(try TLSCatalogue.required().rootCA()), pins: [try CertificatePin(host: host, pins: pins)])
    }

    @Test(arguments: ["good_leaf", "intermediate", "ca"])
    func aPinOfAnyKeyOnTheVerifiedChainPasses(key: String) async throws {
        let pin = "sha256/" + (try #require(TLSCatalogue.required().spki_sha256[key]))
        let echo = try await TLSServerTests.fetch("good", over: HTTPClientTransport(tls: Self.settings(pinning: [pin])))
        #expect(echo.server == "good")
    }

    @Test func theKeysPinTheCatalogueComputedAreTheCertificatesOwn() throws {
        let catalogue = try TLSCatalogue.required()
        let root = try #require(catalogue.rootCA().first)
        #expect(root.publicKeyPin == "sha256/" + (try #require(catalogue.spki_sha256["ca"])))
    }

    @Test func aWrongPinFailsBeforeTheRequestIsSentAndNamesTheKeysSeen() async throws {
        let catalogue = try TLSCatalogue.required()
        let marker = UUID().uuidString
        let transport = try HTTPClientTransport(tls: Self.settings(pinning: [Self.wrongPin]))
        let error = await #expect(throws: APIError.self) {
            try await TLSServerTests.fetch("good", marker: marker, over: transport)
        }
        #expect(error?.kind == .tls)
        let failure = try #require(error?.tlsFailure)
        #expect(failure.reason == .pinMismatch)
        #expect(failure.host == "127.0.0.1")
        let leaf = "sha256/" + (try #require(catalogue.spki_sha256["good_leaf"]))
        let intermediate = "sha256/" + (try #require(catalogue.spki_sha256["intermediate"]))
        #expect(failure.presentedPins == [leaf, intermediate])
        #expect(error?.description.contains(leaf) == true, "\(String(describing: error))")
        #expect(!catalogue.received(marker, server: "good"))
        // The control: a request the pins allow is in the log the check above read.
        let control = UUID().uuidString
        let leafPinned = try HTTPClientTransport(tls: Self.settings(pinning: [leaf]))
        _ = try await TLSServerTests.fetch("good", marker: control, over: leafPinned)
        // nginx writes the line as the request ends, just after its response: it may take a moment.
        try await eventually("the allowed request in the server's log", within: .seconds(5)) {
            catalogue.received(control, server: "good")
        }
    }

    @Test func aBackupPinBesideAWrongOnePasses() async throws {
        let leaf = "sha256/" + (try #require(TLSCatalogue.required().spki_sha256["good_leaf"]))
        let transport = try HTTPClientTransport(tls: Self.settings(pinning: [Self.wrongPin, leaf]))
        #expect(try await TLSServerTests.fetch("good", over: transport).server == "good")
    }

    @Test func pinsForAnotherHostDoNotApply() async throws {
        let transport = try HTTPClientTransport(tls: Self.settings(pinning: [Self.wrongPin], host: "*.example.com"))
        #expect(try await TLSServerTests.fetch("good", over: transport).server == "good")
    }

    @Test func aPinOfAKeyOutsideTheVerifiedChainFailsEvenWhenTheServerSendsIt() async throws {
        // extra_cert sends other_ca's certificate along with the good chain: its key is in the message, not on
        // the path to the trusted root.
        let catalogue = try TLSCatalogue.required()
        let otherCA = "sha256/" + (try #require(catalogue.spki_sha256["other_ca"]))
        let transport = try HTTPClientTransport(tls: Self.settings(pinning: [otherCA]))
        let error = await #expect(throws: APIError.self) {
            try await TLSServerTests.fetch("extra_cert", over: transport)
        }
        let failure = try #require(error?.tlsFailure, "\(String(describing: error))")
        #expect(failure.reason == .pinMismatch)
        #expect(failure.presentedPins.contains(otherCA), "the key was sent, and is named")
        // The same pins pass with the intermediate's key, so the failure was the pin's alone.
        let intermediate = "sha256/" + (try #require(catalogue.spki_sha256["intermediate"]))
        let passing = try HTTPClientTransport(tls: Self.settings(pinning: [otherCA, intermediate]))
        #expect(try await TLSServerTests.fetch("extra_cert", over: passing).server == "extra_cert")
    }

    @Test func pinsHoldWhateverTheCaseOfTheScheme() async throws {
        let catalogue = try TLSCatalogue.required()
        let url = try catalogue.url("good").absoluteString.replacingOccurrences(of: "https:", with: "HTTPS:")
        let client = APIClient(
            baseURL: try #require(URL(string: url)),
            transport: try HTTPClientTransport(tls: Self.settings(pinning: [Self.wrongPin])))
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<TLSServerTests.Echo>.get("/tls/good"))
        }
        #expect(error?.tlsFailure?.reason == .pinMismatch, "\(String(describing: error))")
    }

    @Test(arguments: ["pem", "pkcs12"])
    func aServerThatRequiresAClientCertificateAcceptsTheIdentity(form: String) async throws {
        let catalogue = try TLSCatalogue.required()
        let identity = try form == "pem" ? catalogue.pemIdentity() : catalogue.pkcs12Identity()
        let tls = TLSSettings(trust: .only(try catalogue.rootCA()), identity: identity)
        let transport = try HTTPClientTransport(tls: tls)
        #expect(
            try await TLSServerTests.fetch("client_cert_handshake", over: transport).server == "client_cert_handshake")
        let viaNginx = try await TLSServerTests.fetch("client_cert_nginx", over: transport)
        #expect(viaNginx.server == "client_cert_nginx")
    }

    @Test func withoutTheIdentityTheHandshakeIsRefused() async throws {
        let catalogue = try TLSCatalogue.required()
        let transport = try HTTPClientTransport(tls: TLSSettings(trust: .only(try catalogue.rootCA())))
        let error = await TLSServerTests.failure("client_cert_handshake", over: transport, catalogue: catalogue)
        #expect(error?.tlsFailure?.reason == .clientCertificateRequired, "\(String(describing: error))")
        // nginx finishes the handshake and answers 400 instead: an HTTP error, as the server chose.
        let nginx = await #expect(throws: APIError.self) {
            try await TLSServerTests.fetch("client_cert_nginx", over: transport)
        }
        #expect(nginx?.status == .badRequest)
    }

    @Test func anIdentityNeverShowsItsKeyOrPassphrase() throws {
        let catalogue = try TLSCatalogue.required()
        let key = try String(contentsOfFile: catalogue.client.key_pem, encoding: .utf8)
        let body = key.split(separator: "\n").dropFirst().first.map(String.init) ?? key
        for identity in [try catalogue.pemIdentity(), try catalogue.pkcs12Identity()] {
            var dumped = ""
            dump(identity, to: &dumped)
            let text = "\(identity) \(String(reflecting: identity)) \(dumped)"
            #expect(!text.contains(body) && !text.contains(catalogue.client.p12_passphrase), "\(text)")
        }
    }

    @Test func aKeyThatIsNotTheCertificatesIsRefused() throws {
        let catalogue = try TLSCatalogue.required()
        let error = #expect(throws: TLSMaterialError.self) {
            try ClientIdentity(
                certificateChain: catalogue.rootCA(),
                privateKeyPEM: String(contentsOfFile: catalogue.client.key_pem, encoding: .utf8))
        }
        #expect(error?.description.contains("does not belong to the certificate") == true)
    }

    @Test func aWrongPassphraseIsRefused() throws {
        let catalogue = try TLSCatalogue.required()
        #expect(throws: TLSMaterialError.self) {
            try ClientIdentity(
                pkcs12: Data(contentsOf: URL(fileURLWithPath: catalogue.client.p12)), passphrase: "wrong")
        }
    }
}
