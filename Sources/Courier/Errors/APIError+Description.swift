public import Foundation
import HTTPTypes

extension APIError: CustomStringConvertible, LocalizedError {
    /// One line: the request, the status, what went wrong and where, and the start of the body.
    ///
    /// `GET https://api.example.com/users/x?key=<redacted> failed: 404 Not Found — API error: Not Found`
    public var description: String {
        let target = [method?.rawValue, url].compactMap { $0 }.joined(separator: " ")
        var text = target.isEmpty ? "Request failed" : "\(target) failed"
        if let status { text += ": \(StatusText.describe(status))" }
        text += " — \(kind)"
        if let message, !message.isEmpty { text += ": \(message)" }
        let statusKinds: Set<Kind> = [.apiError, .unacceptableStatus, .logicalError]
        if !statusKinds.contains(kind) { text += " (while \(phase))" }
        if let attempts, attempts > 1 { text += " after \(attempts) attempts" }
        if let bodySnippet, !bodySnippet.isEmpty, kind != .apiError, kind != .logicalError {
            text += "; body: \"\(bodySnippet)\""
        }
        return text
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
