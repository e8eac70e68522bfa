public import Foundation
import HTTPTypes

/// One link of an RFC 8288 `Link` header field: `<https://api.example.com/items?page=2>; rel="next"`.
public struct WebLink: Sendable, Hashable {
    /// The target, resolved against the URL of the response it came with.
    public let url: URL
    /// The relation types, lower-cased (`rel="next prev"` gives both).
    public let relations: [String]
    /// Every other parameter, names lower-cased, values unquoted.
    public let parameters: [String: String]

    /// Parses every link in `fieldValues` (each one `Link` field; a field may hold several links), resolving
    /// relative targets against `base`. Malformed links are skipped.
    public static func parse(_ fieldValues: [String], relativeTo base: URL?) -> [WebLink] {
        fieldValues.flatMap { value in splitLinks(value).compactMap { parseLink($0, base: base) } }
    }

    /// Splits at commas that are outside `<…>` and outside quotes.
    private static func splitLinks(_ value: String) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inTarget = false
        var inQuotes = false
        for index in value.indices {
            switch value[index] {
            case "<" where !inQuotes: inTarget = true
            case ">" where !inQuotes: inTarget = false
            case "\"" where !inTarget: inQuotes.toggle()
            case "," where !inTarget && !inQuotes:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        parts.append(value[start...])
        return parts
    }

    private static func parseLink(_ text: Substring, base: URL?) -> WebLink? {
        let trimmed = text.drop { $0 == " " }
        guard trimmed.first == "<", let close = trimmed.firstIndex(of: ">") else { return nil }
        let target = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
        guard let url = URL(string: target, relativeTo: base)?.absoluteURL else { return nil }
        var parameters: [String: String] = [:]
        for parameter in splitParameters(trimmed[trimmed.index(after: close)...]) {
            let pieces = parameter.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else {
                continue
            }
            var value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            // RFC 8288: only the first occurrence of a parameter counts.
            if parameters[name] == nil { parameters[name] = value }
        }
        let relations = (parameters.removeValue(forKey: "rel") ?? "").lowercased().split(separator: " ").map(
            String.init)
        return WebLink(url: url, relations: relations, parameters: parameters)
    }

    /// Splits `; a=1; b="x;y"` at semicolons outside quotes.
    private static func splitParameters(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var inQuotes = false
        for index in text.indices {
            if text[index] == "\"" { inQuotes.toggle() }
            if text[index] == ";" && !inQuotes {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts.filter { !$0.allSatisfy { $0 == " " } }
    }
}

extension APIResponse {
    /// The response's `Link` header links, resolved against the request's URL.
    public var links: [WebLink] {
        WebLink.parse(response.headerFields[values: .link], relativeTo: url)
    }

    /// The first link with relation `relation` (`"next"`, `"last"`, …).
    public func link(_ relation: String) -> WebLink? {
        links.first { $0.relations.contains(relation.lowercased()) }
    }
}
