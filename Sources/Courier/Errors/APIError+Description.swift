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
        if let status, status == .unauthorized || status == .forbidden,
            let challenge = authenticationChallenges.first(where: { $0.error != nil })
        {
            text += "; WWW-Authenticate: \(challenge)"
        }
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

extension APIError: CustomDebugStringConvertible, CustomReflectable {
    /// The same text as ``description``, so `String(reflecting:)` and `print` of an optional show no secret.
    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the same fields as ``description``, each already redacted. The
    /// decoded ``errorBody`` is shown by its type only, as it may quote the request.
    public var customMirror: Mirror {
        let children: KeyValuePairs<String, Any> = [
            "kind": kind, "phase": phase, "method": method as Any, "url": url as Any, "status": status as Any,
            "responseHeaders": responseHeaders as Any, "bodySnippet": bodySnippet as Any, "message": message as Any,
            "errorBody": errorBody.map { "\(type(of: $0))" } as Any,
            "underlyingError": underlyingError.map { "\($0)" } as Any, "attempts": attempts as Any,
            "redirects": redirects.map(\.description),
        ]
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

/// An underlying error whose text mentioned a secret of the request: its type's name and its text with the
/// secrets replaced by ``Redaction/placeholder``. ``APIError/underlyingError`` holds one instead of the
/// original error (a `URLError` is rebuilt with redacted URLs instead, keeping its code).
public struct RedactedUnderlyingError: Error, Sendable, CustomStringConvertible {
    /// The name of the original error's type.
    public let typeName: String
    /// The original error's text, secrets redacted.
    public let description: String
}
