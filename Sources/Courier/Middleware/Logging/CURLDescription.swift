public import Foundation
public import HTTPTypes

extension HTTPRequest {
    /// The request as a `curl` command line, with secrets redacted: secret query items, header fields and
    /// body fields (see ``Redaction``) show `<redacted>`.
    ///
    /// ```swift
    /// let curl = request.cURLDescription(baseURL: client.baseURL, body: Data(#"{"a":1}"#.utf8))
    /// // curl -X POST 'https://api.example.com/items?key=<redacted>' -H 'Content-Type: application/json' --data-binary '{"a":1}'
    /// ```
    /// - Parameters:
    ///   - baseURL: the URL the request's path is relative to.
    ///   - body: the body bytes, if any; a body that is not UTF-8 text is described by its size.
    ///   - redaction: what to hide; ``Redaction/default`` unless given.
    public func cURLDescription(baseURL: URL, body: Data? = nil, redaction: Redaction = .default) -> String {
        let secrets = redaction.secretValues(in: [self])
        let url = redaction.redact(url: baseURL.textWithoutTrailingSlash + (path ?? ""))
        var parts = ["curl", "-X", method.rawValue, Self.shellQuoted(url)]
        for field in redaction.redact(headers: headerFields) {
            parts += ["-H", Self.shellQuoted("\(field.name.rawName): \(field.value)")]
        }
        if let body, !body.isEmpty {
            let contentType = headerFields[.contentType]
            if String(data: body, encoding: .utf8) != nil {
                let text = redaction.redactedText(ofBody: body, contentType: contentType, secrets: secrets)
                parts += ["--data-binary", Self.shellQuoted(text)]
            } else {
                parts.append("--data-binary @body.bin  # \(body.count) bytes of binary data not shown")
            }
        }
        return parts.joined(separator: " ")
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
