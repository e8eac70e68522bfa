import Foundation
import Hummingbird

/// The JSON bodies of the form-login API.
enum FormLoginBodies {
    struct User: Encodable {
        let id: Int
        let email: String
        let name: String

        static let ada = User(id: 1, email: DemoCredentials.loginEmail, name: "Ada Lovelace")
    }

    /// `POST /auth/local`'s answer.
    struct LoginResult: Encodable {
        let token: String
        let refreshToken: String
        let expiresIn: Double
        let user: User
    }

    /// `POST /auth/refresh`'s answer.
    struct RefreshResult: Encodable {
        let token: String
        let refreshToken: String
        let expiresIn: Double
    }

    /// `{"message": "<message>"}` with `status`.
    static func message(_ message: String, status: HTTPResponse.Status) throws -> Response {
        try DemoResponses.json(DemoResponses.Message(message: message), status: status)
    }

    /// A `401` with `message` and a `WWW-Authenticate: Bearer …` challenge (RFC 6750).
    static func unauthorized(_ message: String, challenge: String) throws -> Response {
        var response = try Self.message(message, status: .unauthorized)
        response.headers[.wwwAuthenticate] = challenge
        return response
    }

    /// `401 {"message": "Token expired"}` with the challenge clients recognise as an expired token.
    static func tokenExpired() throws -> Response {
        try unauthorized(
            "Token expired",
            challenge: #"Bearer error="invalid_token", error_description="The access token expired""#)
    }

    /// The access-token lifetime asked for with `?ttl=` (seconds, fractions allowed), or nil.
    static func requestedLifetime(_ request: Request) throws -> Double? {
        guard let text = QueryItems(request)["ttl"] else { return nil }
        guard let seconds = Double(text), seconds.isFinite, (0...31_536_000).contains(seconds) else {
            throw BadRequest(message: "ttl must be a number of seconds from 0 to 31536000")
        }
        return seconds
    }

    /// The request body as text (at most 64 KiB).
    static func text(of request: Request) async throws -> String {
        let body = try await request.body.collect(upTo: 64 * 1024)
        return String(decoding: body.readableBytesView, as: UTF8.self)
    }
}
