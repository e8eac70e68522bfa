import Foundation
import HTTPTypes

extension Redaction {
    /// `body` as text with secret fields hidden: form fields and JSON object keys named like secret query
    /// items (`password`, `token`, …) get ``placeholder`` as their value, and every value in `secrets`
    /// is scrubbed. Returns `nil` for bytes that are not UTF-8 text.
    func redactedText(ofBody body: Data, contentType: String?, secrets: [String]) -> String? {
        guard let text = String(data: body, encoding: .utf8) else { return nil }
        let type = contentType?.lowercased() ?? ""
        let redacted: String
        if type.hasPrefix("application/x-www-form-urlencoded") {
            redacted = redactForm(text)
        } else if type.contains("json"), let json = redactJSON(body) {
            redacted = json
        } else {
            redacted = text
        }
        return scrub(redacted, secrets: secrets)
    }

    private func redactForm(_ text: String) -> String {
        EncodedQueryPair.split(Substring(text), keepingEmpty: true).map { pair -> String in
            guard pair.encodedValue != nil, isSecretQueryName(pair.name(plusIsSpace: true)) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(Self.placeholder)"
        }.joined(separator: "&")
    }

    private func redactJSON(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return nil
        }
        let redacted = redactJSONValue(object)
        guard let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.fragmentsAllowed]) else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }

    private func redactJSONValue(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, inner) in object {
                result[key] = isSecretQueryName(key) ? Self.placeholder : redactJSONValue(inner)
            }
            return result
        }
        if let array = value as? [Any] { return array.map(redactJSONValue) }
        return value
    }
}
