import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// `.csrfToken` copies a cookie from the client's jar into a header: on state-changing requests to the API's
/// origin only, never over a header the request has, and only once the server set the cookie. Against Django's
/// own CSRF check: `deviceFormsNeedTheCookieEchoed`.
struct CSRFTokenTests {
    static let api = URL(string: "https://api.example.com") ?? URL(filePath: "/")

    /// A server that sets `csrftoken` on `/login` and answers everything else `200`.
    static func server() -> MockTransport {
        MockTransport { request in
            if request.head.path == "/login" {
                return (HTTPResponse(status: .ok, headerFields: [.setCookie: "csrftoken=t0ken-1; Path=/"]), Data())
            }
            return (HTTPResponse(status: .ok), Data())
        }
    }

    @Test func theCookieGoesInTheHeaderOfStateChangingRequestsOnly() async throws {
        let server = Self.server()
        let elsewhere = URL(string: "https://other.example.com/form") ?? Self.api
        let client = APIClient(
            baseURL: Self.api, transport: server, middlewares: [.csrfToken(cookie: "csrftoken", header: .xCSRFToken)]
        ) {
            $0.cookieJar = CookieJar()
            $0.allowedOrigins = Set([Origin(elsewhere)].compactMap { $0 })
        }
        try await client.send(APIRequest<Void>.post("/before"))  // no cookie yet: no header
        try await client.send(APIRequest<Void>.get("/login"))
        try await client.send(APIRequest<Void>.get("/page"))
        try await client.send(APIRequest<Void>.post("/form"))
        try await client.send(APIRequest<Void>.delete("/item"))
        try await client.send(APIRequest<Void>.post("/own", headers: [.xCSRFToken: "mine"]))
        try await client.send(APIRequest<Void>.post(.url(elsewhere)))
        let sent = server.requests.map { ($0.head.path ?? "", $0.head.headerFields[.xCSRFToken]) }
        #expect(sent.map(\.0) == ["/before", "/login", "/page", "/form", "/item", "/own", "/form"])
        #expect(sent.map(\.1) == [nil, nil, nil, "t0ken-1", "t0ken-1", "mine", nil])
    }

    @Test func theHeaderIsRedactedByDefault() {
        let redacted = Redaction.default.redact(headers: [.xCSRFToken: "t0ken-1", .xXSRFTokenTornado: "t0ken-2"])
        #expect(redacted[.xCSRFToken] == Redaction.placeholder)
        #expect(redacted[.xXSRFTokenTornado] == Redaction.placeholder)
    }
}

/// Django's CSRF check, on the authorization server's device pages.
@Suite(.enabled(if: OAuthCatalogue.available), .timeLimit(.minutes(1)))
struct CSRFTokenServerTests {
    @Test func deviceFormsNeedTheCookieEchoed() async throws {
        let catalogue = try OAuthCatalogue.required()
        let without = try await TestBrowser.signedIn(to: catalogue, csrf: false)
        let refused = await #expect(throws: APIError.self) {
            try await without.decide(userCode: "NOSUCHCODE", accept: true)
        }
        #expect(refused?.status == .forbidden, "\(refused?.description ?? "")")
        #expect(refused?.body.map { String(decoding: $0, as: UTF8.self).contains("CSRF verification failed") } == true)
        // With the cookie echoed, Django takes the form and answers for the code (unknown: the form again).
        let with = try await TestBrowser.signedIn(to: catalogue)
        let page = try await with.client.response(
            TestBrowser.FormPage(path: "/o/device/", fields: ["user_code": "NOSUCHCODE"]))
        #expect(page.status == .ok)
        #expect(String(decoding: page.body, as: UTF8.self).contains("Incorrect user code"))
    }
}
