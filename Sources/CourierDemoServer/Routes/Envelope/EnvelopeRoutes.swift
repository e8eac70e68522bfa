import Foundation
import Hummingbird

/// The envelope API's account routes; every body is an ``Envelope`` and logical outcomes are
/// HTTP 200:
///
/// - `POST /envelope/login` with JSON `{"username", "password"}` → `response: {"accessToken": "env_…",
///   "expiresIn": 3600}`; wrong credentials → `success: false`, error 1001 `Invalid username or password`;
///   a body that is not such JSON → HTTP 400 with error 1000.
/// - `GET /envelope/profile/avatar` with `Authorization: Bearer <accessToken>` →
///   `{"success": true, "error": null, "response": null}`; no or unknown token → error 1002.
/// - `GET /envelope/crash` → HTTP 500 with an HTML page: a server error, not a logical one.
/// - `GET /envelope/malformed` → HTTP 200 `{"success": "yes", "response": {}}`, which no envelope decodes.
enum EnvelopeRoutes {
    struct Login: Decodable {
        let username: String
        let password: String
    }

    struct Session: Encodable {
        let accessToken: String
        let expiresIn: Int
    }

    static func add(to router: Router<DemoContext>, store: EnvelopeStore) {
        router.post("/envelope/login") { request, _ in
            let body = try await request.body.collect(upTo: 64 * 1024)
            guard let login = try? JSONDecoder().decode(Login.self, from: Data(body.readableBytesView)) else {
                return try EnvelopeResponse.failure(.malformedRequest, status: .badRequest)
            }
            guard login.username == DemoCredentials.envelopeUser, login.password == DemoCredentials.envelopePassword
            else {
                return try EnvelopeResponse.failure(.invalidCredentials)
            }
            let session = Session(
                accessToken: store.issueToken(), expiresIn: Int(EnvelopeStore.tokenLifetime.components.seconds))
            return try EnvelopeResponse.success(session)
        }
        router.get("/envelope/profile/avatar") { request, _ in
            guard store.isValid(AuthorizationHeader.bearerToken(of: request)) else {
                return try EnvelopeResponse.failure(.accessTokenRequired)
            }
            return try EnvelopeResponse.success(EnvelopeResponse.Nothing?.none)
        }
        router.get("/envelope/crash") { _, _ in
            let page =
                "<html><head><title>500 Internal Server Error</title></head><body><h1>Internal Server Error"
                + "</h1><p>The envelope service crashed.</p></body></html>"
            return DemoResponses.text(page, contentType: "text/html; charset=utf-8", status: .internalServerError)
        }
        router.get("/envelope/malformed") { _, _ in
            DemoResponses.json(bytes: #"{"success":"yes","response":{}}"#.utf8)
        }
    }
}
