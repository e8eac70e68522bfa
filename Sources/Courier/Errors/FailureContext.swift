import Foundation
import HTTPTypes

/// What Courier knows about a request when it turns a failure into an ``APIError``. The pipeline makes one
/// (``APIClient/failureContext(for:)``) only when a phase fails, so the success path pays nothing for it.
struct FailureContext: Sendable {
    let request: HTTPRequest?
    let baseURL: String
    let redaction: Redaction

    /// An error with the request's method and redacted URL, and every secret scrubbed from its text.
    func error(
        _ kind: APIError.Kind, phase: APIError.Phase, message: String? = nil, underlying: (any Error)? = nil,
        response: HTTPResponse? = nil, body: Data? = nil, errorBody: (any Sendable)? = nil
    ) -> APIError {
        let secrets = redaction.secrets(inPath: request?.path, headers: request?.headerFields ?? [:])
        var error = APIError(kind, phase: phase, underlyingError: underlying)
        error.method = request?.method
        error.url = request.map { redaction.redact(url: baseURL + ($0.path ?? "")) }
        error.status = response?.status
        error.responseHeaders = response.map { redaction.redact(headers: $0.headerFields) }
        error.errorBody = errorBody
        let explanation = message ?? errorBody.map { String(describing: $0) } ?? underlying.map(Self.describe)
        error.message = explanation.map { redaction.scrub($0, secrets: secrets) }
        error.bodySnippet = body.flatMap { body in
            // Secret fields (a token in a login answer) are redacted in the whole body before it is cut.
            let text = redaction.redactedText(
                ofBody: body, contentType: response?.headerFields[.contentType], secrets: secrets)
            return Self.snippet(of: text.map { Data($0.utf8) } ?? body).map { redaction.scrub($0, secrets: secrets) }
        }
        return error
    }

    /// The first ``APIError/snippetLimit`` characters of a body, or `nil` when it is empty.
    static func snippet(of body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(APIError.snippetLimit * 4), as: UTF8.self)
        let trimmed = text.prefix(APIError.snippetLimit)
        let collapsed = trimmed.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: "")
        return trimmed.count < text.count || body.count > APIError.snippetLimit * 4 ? collapsed + "…" : collapsed
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
