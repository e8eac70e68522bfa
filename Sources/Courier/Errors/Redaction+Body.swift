import Foundation
import HTTPTypes

extension Redaction {
    /// `body` as it came, as UTF-8 bytes, with secrets hidden: every value in `secrets` is scrubbed, and form
    /// fields and JSON members named like secret query items (`password`, `token`, …) get ``placeholder`` as
    /// their value, in place (nothing is re-serialised). For JSON, also where the value at `codingPath`
    /// starts in the result, when it is given and found. `nil` for bytes that are not UTF-8 text.
    func redacted(
        body: Data, contentType: String?, secrets: [String], locating codingPath: [any CodingKey]? = nil
    ) -> (text: [UInt8], location: Int?)? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        let scrubbed = scrub(text, secrets: secrets)
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return (Array(redactForm(scrubbed).utf8), nil)
        }
        if type.contains("json") || type.isEmpty && scrubbed.first.map({ $0 == "{" || $0 == "[" }) == true {
            return JSONRedactor.redact(Array(scrubbed.utf8), isSecret: { isSecretQueryName($0) }, locating: codingPath)
        }
        return (Array(scrubbed.utf8), nil)
    }

    /// `body` as text with secrets hidden (see ``redacted(body:contentType:secrets:locating:)``); `nil` for
    /// bytes that are not UTF-8 text.
    func redactedText(ofBody body: Data, contentType: String?, secrets: [String]) -> String? {
        redacted(body: body, contentType: contentType, secrets: secrets).map {
            String(decoding: $0.text, as: UTF8.self)
        }
    }

    private func redactForm(_ text: String) -> String {
        EncodedQueryPair.split(Substring(text), keepingEmpty: true).map { pair -> String in
            guard pair.encodedValue != nil, isSecretQueryName(pair.name(plusIsSpace: true)) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(Self.placeholder)"
        }.joined(separator: "&")
    }
}
