import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// libcurl's messages, as URLSession on Linux reports TLS failures (`URLError(.unknown)`), read into reasons:
/// the texts the failure catalogue cannot reach there (URLSession on Linux never trusts the test CA, so most
/// of its servers fail as an unknown issuer first). Texts from curl 7.88.1 with OpenSSL 3.0, against the
/// catalogue's servers trusted by `--cacert`.
@Suite struct URLSessionTLSTests {
    @Test(arguments: [
        ("SSL certificate problem: certificate has expired", TLSFailure.Reason.expired),
        ("SSL certificate problem: self-signed certificate in certificate chain", .untrustedRoot),
        ("SSL certificate problem: self-signed certificate", .selfSigned),
        ("SSL certificate problem: unable to get local issuer certificate", .incompleteChain),
        ("SSL: no alternative certificate subject name matches target host name '127.0.0.1'", .wrongHost),
        ("OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", .notTLS),
        (
            "OpenSSL SSL_read: OpenSSL/3.0.19: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0",
            .clientCertificateRequired
        ),
        ("OpenSSL/3.0.19: error:0A00042E:SSL routines::tlsv1 alert protocol version", .protocolVersion),
        ("SSL certificate problem: certificate signature failure", .untrusted),
    ])
    func libcurlsWordsNameTheReason(text: String, reason: TLSFailure.Reason) throws {
        let error = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: text])
        let failure = try #require(URLSessionTLS.failure(error, host: "127.0.0.1"))
        #expect(failure.reason == reason)
        #expect(failure.detail == text)
    }

    @Test func otherFailuresAreNotTLS() {
        let refused = URLError(.cannotConnectToHost)
        let cut = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 900 bytes remaining"])
        #expect(URLSessionTLS.failure(refused, host: "h") == nil)
        #expect(URLSessionTLS.failure(cut, host: "h") == nil)
    }
}

extension URLSessionTLSTests {
    @Test(arguments: [
        (URLError.Code.serverCertificateHasBadDate, TLSFailure.Reason.expired),
        (.serverCertificateHasUnknownRoot, .untrustedRoot),
        (.serverCertificateUntrusted, .untrusted),
        (.clientCertificateRequired, .clientCertificateRequired),
        (.secureConnectionFailed, .handshake),
    ])
    func applePlatformsCodesNameTheReason(code: URLError.Code, reason: TLSFailure.Reason) {
        #expect(URLSessionTLS.failure(URLError(code), host: "h")?.reason == reason)
    }
}
