public import Foundation
import HTTPTypes

extension Redaction {
    /// `body` as it came, with secrets hidden: every value in `secrets` is scrubbed, and form fields and JSON
    /// members named like secret query items (`password`, `token`, …) get ``placeholder`` as their value, in
    /// place (nothing is re-serialised). A body is taken for JSON by its content type or by its first
    /// character, whatever the type says. For JSON, also where the value at `codingPath` starts in the
    /// result, when it is given and found. Bytes that are not UTF-8 are redacted the same way, byte for byte.
    func redacted(
        body: Data, contentType: String?, secrets: [String], locating codingPath: [any CodingKey]? = nil,
        naming: (Substring) -> String = Redaction.plainName
    ) -> (text: [UInt8], location: Int?) {
        let type = contentType?.lowercased() ?? ""
        let bytes: [UInt8]
        if let text = String(data: body, encoding: .utf8) {
            let scrubbed = scrub(text, secrets: secrets, naming: naming)
            if type.hasPrefix("application/x-www-form-urlencoded") {
                return (Array(redactForm(scrubbed, naming: naming).utf8), nil)
            }
            bytes = Array(scrubbed.utf8)
        } else {
            bytes = Self.scrubbing(secrets, from: Array(body), naming: naming)
        }
        guard type.contains("json") || Self.startsLikeJSON(bytes) else { return (bytes, nil) }
        return withoutActuallyEscaping(naming) { naming in
            JSONRedactor.redact(bytes, isSecret: { isSecretQueryName($0) }, naming: naming, locating: codingPath)
        }
    }

    /// `body` as text with secrets hidden (see ``redacted(body:contentType:secrets:locating:)``).
    func redactedText(ofBody body: Data, contentType: String?, secrets: [String]) -> String {
        String(decoding: redacted(body: body, contentType: contentType, secrets: secrets).text, as: UTF8.self)
    }

    /// Whether the first character after any byte-order mark and white space opens an object or array.
    private static func startsLikeJSON(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// `bytes` with every secret's UTF-8 spelling replaced by ``placeholder``.
    static func scrubbing(
        _ secrets: [String], from bytes: [UInt8], naming: (Substring) -> String = Redaction.plainName
    ) -> [UInt8] {
        secrets.reduce(bytes) { result, secret in
            secret.isEmpty ? result : result.replacing(Array(secret.utf8), with: Array(naming(secret[...]).utf8))
        }
    }

    private func redactForm(_ text: String, naming: (Substring) -> String) -> String {
        EncodedQueryPair.split(Substring(text), keepingEmpty: true).map { pair -> String in
            guard let value = pair.encodedValue, isSecretQueryName(pair.name(plusIsSpace: true)) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(naming(value))"
        }.joined(separator: "&")
    }
}

extension Redaction {
    /// A body as it may be written down: every one of `secrets` replaced by ``placeholder`` (byte for byte when
    /// it isn't UTF-8), and form fields and JSON members named like secret query items (`password`, `token`,
    /// …) given the placeholder as their value, in place.
    public func redactedBody(_ body: Data, contentType: String?, secrets: [String]) -> Data {
        Data(redacted(body: body, contentType: contentType, secrets: secrets).text)
    }

    /// `body` redacted as ``redactedBody(_:contentType:secrets:)`` does, each secret written as `naming` calls
    /// it (given the secret as it appears: a spelling of `secrets`, a form field's encoded value, a JSON
    /// member's value without its quotes), for tools that tell secrets apart.
    package func redactedBody(
        _ body: Data, contentType: String?, secrets: [String], naming: (Substring) -> String
    ) -> Data {
        Data(redacted(body: body, contentType: contentType, secrets: secrets, naming: naming).text)
    }
}
