import Courier
import Foundation
import Testing

/// The cookie jar over TLS and HTTP/2, against the test server over TLS: a `Secure` cookie set over https goes
/// back over https. (Cookies ignore ports, and RFC 6265bis counts a loopback host as secure, so the same cookie
/// would also go to the plain test server on 127.0.0.1: `CookieJarTests` holds that rule.)
@Suite(.enabled(if: TLSCatalogue.available), .timeLimit(.minutes(1)))
struct HTTPStateOverTLSTests {
    typealias Echo = EchoConformanceTests.Echo

    @Test func aSecureCookieSetOverTLSGoesBackOnlyOverTLS() async throws {
        let transport = TransportUnderTest.httpClientTLS
        let jar = CookieJar()
        let secure = APIClient(baseURL: try await transport.testServerURL(), transport: transport.make()) {
            $0.cookieJar = jar
        }
        #expect(try await transport.testServerURL().scheme == "https")
        let cookie = "session=S3CRET-\(UUID().uuidString.prefix(8)); Secure; HttpOnly; Path=/"
        _ = try await secure.send(APIRequest<Data>.get("/headers/set", query: ["Set-Cookie": cookie]))
        let echo = try await secure.send(APIRequest<Echo>.get("/echo/secure"))
        #expect(echo.values(of: "Cookie") == [String(cookie.prefix { $0 != ";" })])
    }
}
