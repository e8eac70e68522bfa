import Hummingbird

/// The envelope every `/envelope` response is wrapped in:
/// `{"success": Bool, "error": {"errorMessage": String, "errorCode": Int} | null, "response": T | null}`.
/// All three keys are always present; `null` is written out.
struct Envelope<Payload: Encodable>: Encodable {
    let success: Bool
    let error: EnvelopeError?
    let response: Payload?

    private enum CodingKeys: String, CodingKey {
        case success, error, response
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(success, forKey: .success)
        try container.encode(error, forKey: .error)
        try container.encode(response, forKey: .response)
    }
}

/// Builds envelope responses.
enum EnvelopeResponse {
    /// A payload type for envelopes whose `response` is always `null`.
    struct Nothing: Encodable {}

    /// `success: true` around `payload` (nil gives `"response": null`), HTTP 200.
    static func success(_ payload: (some Encodable)?) throws -> Response {
        try DemoResponses.json(Envelope(success: true, error: nil, response: payload))
    }

    /// `success: false` with the logical error `failure`, HTTP `status` (200 unless the request itself was
    /// malformed).
    static func failure(_ failure: EnvelopeError, status: HTTPResponse.Status = .ok) throws -> Response {
        try DemoResponses.json(Envelope<Nothing>(success: false, error: failure, response: nil), status: status)
    }
}

/// A logical error inside an envelope: `{"errorMessage": "…", "errorCode": 1001}`.
struct EnvelopeError: Encodable, Sendable {
    let errorMessage: String
    let errorCode: Int

    /// 1000: a login body that is not JSON with string `username` and `password` (sent with HTTP 400).
    static let malformedRequest = Self(errorMessage: "username and password are required", errorCode: 1000)
    /// 1001: wrong user name or password.
    static let invalidCredentials = Self(errorMessage: "Invalid username or password", errorCode: 1001)
    /// 1002: no `Authorization: Bearer` header, or a token this server did not issue (or that expired).
    static let accessTokenRequired = Self(errorMessage: "Access token required", errorCode: 1002)
    /// 1003: a `page` that is not a positive integer.
    static let invalidPage = Self(errorMessage: "Invalid page", errorCode: 1003)
    /// 1004: no article with that id.
    static let articleNotFound = Self(errorMessage: "Article not found", errorCode: 1004)
}
