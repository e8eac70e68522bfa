import Foundation
import Testing

@testable import Courier

/// Host patterns and pin syntax, as OkHttp's `CertificatePinner` reads them.
@Suite struct CertificatePinTests {
    static let pinA = "sha256/" + Data(repeating: 1, count: 32).base64EncodedString()
    static let pinB = "sha256/" + Data(repeating: 2, count: 32).base64EncodedString()

    @Test(arguments: [
        ("api.example.com", "api.example.com", true),
        ("api.example.com", "API.Example.COM", true),
        ("api.example.com", "www.example.com", false),
        ("*.example.com", "api.example.com", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "a.b.example.com", false),
        ("*.example.com", "badexample.com", false),
        ("**.example.com", "example.com", true),
        ("**.example.com", "a.b.example.com", true),
        ("**.example.com", "notexample.com", false),
        ("127.0.0.1", "127.0.0.1", true),
        ("api.example.com", "api.example.com.", true),
        ("api.example.com.", "API.EXAMPLE.COM", true),
        ("[::1]", "::1", true),
        ("::1", "[::1]", true),
    ])
    func patternsMatchAsOkHttpDoes(pattern: String, host: String, matches: Bool) throws {
        let pin = try CertificatePin(host: pattern, pins: [Self.pinA])
        #expect(pin.matches(host: host) == matches)
    }

    @Test func everyPatternThatMatchesAHostAddsItsPins() throws {
        let pins = [
            try CertificatePin(host: "**.example.com", pins: [Self.pinA]),
            try CertificatePin(host: "api.example.com", pins: [Self.pinB]),
        ]
        #expect(
            pins.hashes(for: "api.example.com") == [Array(repeating: 1, count: 32), Array(repeating: 2, count: 32)])
        #expect(pins.hashes(for: "www.example.com") == [Array(repeating: 1, count: 32)])
        #expect(pins.hashes(for: "example.org") == nil)
    }

    @Test func aBareBase64HashReadsAsASHA256Pin() throws {
        let bare = Data(repeating: 1, count: 32).base64EncodedString()
        let pin = try CertificatePin(host: "example.com", pins: [bare])
        #expect(pin.hashes == [Array(repeating: 1, count: 32)])
    }

    @Test(arguments: [
        ("", [pinA], "is not a host pattern"),
        ("*", [pinA], "is not a host pattern"),
        ("a.*.example.com", [pinA], "is not a host pattern"),
        ("example..com", [pinA], "is not a host pattern"),
        ("api.example.com:443", [pinA], "is not a host pattern"),
        ("https://api.example.com", [pinA], "is not a host pattern"),
        ("a b.example.com", [pinA], "is not a host pattern"),
        ("example.com", [], "no pins for 'example.com'"),
        ("example.com", ["sha1/AAAA"], "is not a SHA-256 pin"),
        ("example.com", ["sha256/" + Data(repeating: 1, count: 20).base64EncodedString()], "is not a SHA-256 pin"),
    ])
    func badPatternsAndPinsAreRefusedWithTheReason(pattern: String, pins: [String], message: String) {
        let error = #expect(throws: TLSMaterialError.self) { try CertificatePin(host: pattern, pins: pins) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }
}
