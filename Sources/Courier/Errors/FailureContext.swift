import Foundation
import HTTPTypes

/// What Courier knows about a request when it turns a failure into an ``APIError``. The pipeline makes one
/// (``APIClient/failureContext(for:)``) only when a phase fails, so the success path pays nothing for it.
struct FailureContext: Sendable {
    /// Secrets the request's body carries (an OAuth form's refresh token, code or client secret), which only the
    /// code that built the body knows and a server's answer may quote: set around a send, hidden in every
    /// spelling like the head's own.
    @TaskLocal static var bodySecrets: [String] = []

    let request: HTTPRequest?
    let baseURL: String
    let redaction: Redaction
    /// What went before: the redirects followed, and every head sent (after middleware, earlier hops
    /// included), whose secrets are hidden as well as those of `request`.
    var trail = Trail()

    /// An error with the request's method and redacted URL, and every secret scrubbed from its text.
    func error(
        _ kind: APIError.Kind, phase: APIError.Phase, message: String? = nil, underlying: (any Error)? = nil,
        response: HTTPResponse? = nil, body: Data? = nil, errorBody: (any Sendable)? = nil
    ) -> APIError {
        let secrets = redaction.secretValues(
            in: (request.map { [$0] } ?? []) + trail.sent, responses: response.map { [$0] } ?? [],
            extra: Self.bodySecrets)
        var error = APIError(kind, phase: phase, underlyingError: underlying.map { scrubbed($0, secrets: secrets) })
        error.redirects = trail.redirects
        error.method = request?.method
        error.url = request.map { redaction.redact(url: baseURL + ($0.path ?? "")) }
        error.status = response?.status
        error.responseHeaders = response.map { redaction.redact(headers: $0.headerFields) }
        error.errorBody = errorBody
        // Secrets are hidden in the whole body, in place, before it is cut or read for a message; a decoding
        // error's snippet shows the part of the body where decoding failed.
        var redactedBody: [UInt8]?
        if let body, !body.isEmpty {
            let codingPath = (underlying as? DecodingError).map(Self.codingPath(of:))
            let (text, location) = redaction.redacted(
                body: body, contentType: response?.headerFields[.contentType], secrets: secrets, locating: codingPath)
            redactedBody = text
            error.bodySnippet = Self.snippet(of: text, around: location)
            let end = min(text.count, APIError.bodyLimit)
            error.body = Data(text[..<end])
        }
        let explanation =
            message ?? errorBody.map { Self.describe(errorBody: $0, redactedBody: redactedBody) }
            ?? underlying.map(Self.describe)
        error.message = explanation.map { redaction.scrub($0, secrets: secrets) }
        return error
    }

    /// `error`, or when its text mentions a secret, a `URLError` with its URLs redacted or a
    /// ``RedactedUnderlyingError``. Errors a user may match on (decoding, cancellation) never mention one.
    private func scrubbed(_ error: any Error, secrets: [String]) -> any Error {
        if let urlError = error as? URLError {
            var info: [String: Any] = [:]
            for (key, value) in urlError.userInfo {
                if let url = value as? URL {
                    info[key] = URL(string: redaction.scrub(url.absoluteString, secrets: secrets))
                } else if let text = value as? String {
                    info[key] = redaction.scrub(text, secrets: secrets)
                }
            }
            return URLError(urlError.code, userInfo: info)
        }
        let text = String(describing: error)
        let scrubbedText = redaction.scrub(text, secrets: secrets)
        let reflected = String(reflecting: error)
        guard scrubbedText != text || redaction.scrub(reflected, secrets: secrets) != reflected else { return error }
        return RedactedUnderlyingError(typeName: "\(type(of: error))", description: scrubbedText)
    }

    /// Up to ``APIError/snippetLimit`` characters of `text` on one line, starting a little before `location`
    /// (a byte offset) when there is one, with `…` where it was cut.
    static func snippet(of text: [UInt8], around location: Int?) -> String? {
        guard !text.isEmpty else { return nil }
        var start = min(max(0, (location ?? 0) - APIError.snippetLimit / 3), text.count - 1)
        while start > 0, text[start] & 0xC0 == 0x80 { start -= 1 }  // not inside a character
        let window = text[start...].prefix(APIError.snippetLimit * 4)
        let decoded = String(decoding: window, as: UTF8.self)
        let kept = decoded.prefix(APIError.snippetLimit)
        let line = kept.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
        let isCut = kept.count < decoded.count || window.count < text.count - start
        return (start > 0 ? "…" : "") + line + (isCut ? "…" : "")
    }

    private static func codingPath(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.codingPath
        @unknown default: []
        }
    }

    /// What an API's decoded error body says: its own `description` when it has one; else the message of the
    /// body (its secrets redacted), from the first of the members APIs usually put it in (`message`, `error_description`,
    /// `detail`, `title`, `error`, or `error.message`); else the start of the body. Never a Swift dump of the
    /// decoded value.
    static func describe(errorBody: any Sendable, redactedBody: [UInt8]?) -> String {
        if let described = errorBody as? any CustomStringConvertible { return described.description }
        guard let redactedBody, !redactedBody.isEmpty else { return "\(type(of: errorBody))" }
        if let message = apiMessage(in: redactedBody) {
            // On one line, and no longer than a body snippet.
            return snippet(of: Array(message.utf8), around: nil) ?? message
        }
        return snippet(of: redactedBody, around: nil) ?? "\(type(of: errorBody))"
    }

    /// The message of a JSON error body, from the members APIs usually put it in.
    static func apiMessage(in body: [UInt8]) -> String? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            return nil
        }
        for member in ["message", "error_description", "detail", "title", "error"] {
            if let text = object[member] as? String, !text.isEmpty { return text }
        }
        // `{"error": {"message": …}}` (Google, OpenAI, Stripe, …).
        if let nested = object["error"] as? [String: Any], let text = nested["message"] as? String, !text.isEmpty {
            return text
        }
        return nil
    }

    /// A readable account of an underlying error; decoding errors say where in the body they failed.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let decoding as DecodingError: describe(decoding)
        case let encoding as EncodingError: describe(encoding)
        default: String(describing: error)
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\(outline(error)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            "\(context.debugDescription) (at \(path(context.codingPath)))"
        default:
            outline(error)
        }
    }

    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(let value, let context):
            "cannot encode \(type(of: value)) at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            String(describing: error)
        }
    }

    /// What kind of decoding failure `error` is and where, without the decoder's own text, which may quote
    /// the body: `missing key "message" at the top level`, `expected Int at items[0].id`,
    /// `unreadable data at the top level`.
    static func outline(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(let type, let context): "expected \(type) at \(path(context.codingPath))"
        case DecodingError.valueNotFound(let type, let context): "no \(type) value at \(path(context.codingPath))"
        case DecodingError.keyNotFound(let key, let context):
            "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case DecodingError.dataCorrupted(let context): "unreadable data at \(path(context.codingPath))"
        default: "\(type(of: error))"
        }
    }

    /// `items[0].id`, or `the top level`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}

/// What a request went through before the current hop: the redirects it followed and the heads it sent.
struct Trail: Sendable {
    /// The redirects followed, in order.
    var redirects: [Redirect] = []
    /// Request heads that went out (after middleware), earlier hops included.
    var sent: [HTTPRequest] = []

    /// This trail with `heads` sent after what it holds (no copy on the first hop).
    func adding(sent heads: [HTTPRequest]) -> Trail {
        Trail(redirects: redirects, sent: sent.isEmpty ? heads : sent + heads)
    }
}
