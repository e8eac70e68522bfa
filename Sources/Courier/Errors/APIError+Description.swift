public import Foundation
import HTTPTypes

extension APIError: CustomStringConvertible, LocalizedError {
    /// One line: the request, the status, what went wrong and where, and the start of the body.
    ///
    /// `GET https://api.example.com/users/x?key=<redacted> failed: 404 Not Found — API error: Not Found`
    public var description: String {
        var text = "\(method?.rawValue ?? "Request") \(url ?? "<no URL>") failed"
        if let status { text += ": \(StatusText.describe(status))" }
        text += " — \(kind)"
        if let message, !message.isEmpty { text += ": \(message)" }
        if kind != .apiError && kind != .unacceptableStatus { text += " (while \(phase))" }
        if let attempts, attempts > 1 { text += " after \(attempts) attempts" }
        if let bodySnippet, !bodySnippet.isEmpty, kind != .apiError {
            text += "; body: \"\(bodySnippet)\""
        }
        return text
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
