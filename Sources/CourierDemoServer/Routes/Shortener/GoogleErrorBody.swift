import Hummingbird

/// Google's JSON error body, `{"error": {"code": 400, "message": "…", "errors": [{"domain": …}]}}`,
/// as the URL Shortener v1 API sent it. `locationType` and `location` appear only for parameter errors.
struct GoogleErrorBody: Encodable {
    struct Detail: Encodable {
        let code: Int
        let message: String
        let errors: [Item]
    }

    struct Item: Encodable {
        let domain: String
        let reason: String
        let message: String
        var locationType: String?
        var location: String?
    }

    let error: Detail

    /// The response carrying this body; its status is the body's `code`.
    func response() throws -> Response {
        let status = ReasonPhrase.status(error.code)
        return try DemoResponses.json(self, status: status)
    }

    /// One error item whose message is also the top-level message (Google's usual shape).
    static func single(
        code: Int, domain: String = "global", reason: String, message: String, location: String? = nil
    ) -> GoogleErrorBody {
        let item = Item(
            domain: domain, reason: reason, message: message,
            locationType: location == nil ? nil : "parameter", location: location)
        return GoogleErrorBody(error: Detail(code: code, message: message, errors: [item]))
    }

    /// `403`: no `key` query item and no `X-Goog-Api-Key` header.
    static let missingKey = single(
        code: 403, reason: "forbidden", message: "The request is missing a valid API key.")
    /// `400`: a key that is not ``DemoCredentials/shortenerAPIKey``.
    static let invalidKey = single(code: 400, domain: "usageLimits", reason: "keyInvalid", message: "Bad Request")
    /// `400`: a body that is not JSON.
    static let parseError = single(code: 400, reason: "parseError", message: "Parse Error")
    /// `400`: `longUrl` missing or not an absolute http(s) URL.
    static let invalidLongURL = single(
        code: 400, reason: "invalid", message: "Invalid Value", location: "resource.longUrl")
    /// `400`: `GET` without `shortUrl`.
    static let missingShortURL = single(
        code: 400, reason: "required", message: "Required parameter: shortUrl", location: "shortUrl")
    /// `404`: a `shortUrl` this server never issued.
    static let notFound = single(code: 404, reason: "notFound", message: "Not Found")
}
