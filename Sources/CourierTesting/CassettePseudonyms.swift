import Courier
import Foundation

/// The names a cassette writes secrets under: one placeholder per distinct secret, `<redacted:N>`, the same
/// wherever that secret appears (URLs, fields, bodies, requests and responses alike, in any spelling), so that
/// equal secrets stay equal and different ones stay different in the file, and the structure around a secret
/// (`Bearer `, a cookie's or query item's name) stays as it was.
///
/// While a cassette is being written the numbers are temporary (`<redacted:t3>`); ``Renumbering`` then numbers
/// the placeholders of the whole file in the order they first appear, so that two recordings of the same
/// exchanges write the same numbers.
final class Pseudonyms {
    /// Each known spelling of a secret, and its secret's temporary number.
    private var numbers: [String: Int] = [:]
    private var count = 0
    /// Every spelling of every secret, longest first: what is scrubbed from text.
    let spellings: [String]

    /// Names for `secrets`, each the spellings of one secret (``Redaction``'s `secrets(in:responses:extra:)`).
    /// A secret that is itself a placeholder (a token a replay handed out, sent back) keeps its name.
    init(secrets: [[String]]) {
        for group in secrets where !group.contains(where: { Placeholder.isWhole($0) }) {
            count += 1
            for spelling in group where numbers[spelling] == nil { numbers[spelling] = count }
        }
        spellings = numbers.keys.sorted { ($0.count, $0) > ($1.count, $1) }
    }

    /// The placeholder of `secret`, given as it appears in text; a value no secret was spelled as (a JSON
    /// member or form field named like a secret) gets a number of its own, the same for equal values.
    func name(_ secret: Substring) -> String {
        if Placeholder.isWhole(secret) { return String(secret) }
        let key = String(secret)
        if let number = numbers[key] { return "<redacted:t\(number)>" }
        count += 1
        numbers[key] = count
        return "<redacted:t\(count)>"
    }
}

/// Numbers the temporary placeholders of a cassette (`<redacted:t3>`) in the order they first appear, after
/// the numbers an earlier recording wrote, which stay as they are: the numbers depend only on where secrets
/// appear, not on their values, and a `recordMissing` run leaves what was written alone.
final class Renumbering {
    private var numbers: [Substring: Int] = [:]
    private var highest: Int

    /// Numbers after `highestKept`, the highest number the file already holds (0 for none).
    init(after highestKept: Int) { highest = highestKept }

    /// The highest number in `texts`' placeholders.
    static func highest(in texts: some Sequence<String>) -> Int {
        texts.lazy.flatMap { $0.matches(of: Placeholder.numbered) }.compactMap { Int($0.output.1) }.max() ?? 0
    }

    /// `text` with every temporary placeholder, as written or percent-encoded, numbered.
    func callAsFunction(_ text: String) -> String {
        guard text.contains("redacted:t") || text.contains("redacted%3At") || text.contains("redacted%3at") else {
            return text
        }
        return text.replacing(Placeholder.numbered) { match in
            let whole = match.output.0
            let label = match.output.1
            guard label.hasPrefix("t") else { return String(whole) }
            let number =
                numbers[label]
                ?? {
                    highest += 1
                    numbers[label] = highest
                    return highest
                }()
            return whole[..<label.startIndex] + String(number) + whole[label.endIndex...]
        }
    }
}

/// Reading placeholders back: what a live request's secrets were, and a replayed response with them restored.
enum Placeholder {
    /// A numbered placeholder as written or percent-encoded, with its number (`t3` while being written).
    // Computed: `Regex` is not `Sendable`, and a literal costs nothing to make again.
    static var numbered: Regex<(Substring, Substring)> { #/(?:<|%3[Cc])redacted(?::|%3[Aa])(t?[0-9]+)(?:>|%3[Ee])/# }
    /// Any placeholder: numbered, plain (`<redacted>`) or numbered by an earlier replay (`<redacted-3>`).
    static var any: Regex<Substring> { #/(?:<|%3[Cc])redacted(?:(?::|%3[Aa])t?[0-9]+|-[0-9]+)?(?:>|%3[Ee])/# }

    /// Whether `text` is one placeholder and nothing else.
    static func isWhole(_ text: some StringProtocol) -> Bool {
        text.contains("redacted") && (try? any.wholeMatch(in: String(text))) != nil
    }

    /// `text` with every placeholder written plainly, so that texts that differ only in their secrets'
    /// numbers (or in whether a value was known to be secret) compare equal.
    static func unnumbered(_ text: String) -> String {
        guard text.contains("redacted") else { return text }
        return text.replacing(any) { _ in Redaction.placeholder }
    }

    /// How a value is spelled where it appears.
    enum Context {
        case field, path, json, form, text

        /// How a body of type `mimeType` spells a value.
        static func body(mimeType: String) -> Context {
            let type = mimeType.lowercased()
            if type.contains("json") { return .json }
            return type.hasPrefix("application/x-www-form-urlencoded") ? .form : .text
        }
    }

    /// The values the numbered placeholders of `recorded` stand for in `live`, which must read the same
    /// everywhere else; none when it doesn't. Values come back decoded from `context`'s spelling.
    static func bindings(recorded: String, live: String, context: Context) -> [Int: String] {
        let placeholders = recorded.matches(of: any)
        guard !placeholders.isEmpty else { return [:] }
        // The text between placeholders, matched left to right, each placeholder taking what lies up to the
        // next piece's first occurrence: linear, with no backtracking whatever the text.
        var pieces: [Substring] = []
        var rest = recorded[...]
        for placeholder in placeholders {
            pieces.append(rest[..<placeholder.range.lowerBound])
            rest = rest[placeholder.range.upperBound...]
        }
        guard live.hasPrefix(pieces[0]), live.hasSuffix(rest),
            live.count >= pieces.reduce(rest.count, { $0 + $1.count })
        else { return [:] }
        var values: [Int: String] = [:]
        var position = live.index(live.startIndex, offsetBy: pieces[0].count)
        let end = live.index(live.endIndex, offsetBy: -rest.count)
        for (index, placeholder) in placeholders.enumerated() {
            let next = index + 1 < pieces.count ? pieces[index + 1] : nil
            let valueEnd: String.Index
            let resume: String.Index
            if let next {
                guard let found = next.isEmpty ? position..<position : live[position..<end].range(of: next) else {
                    return [:]
                }
                (valueEnd, resume) = (found.lowerBound, found.upperBound)
            } else {
                (valueEnd, resume) = (end, end)
            }
            guard position <= valueEnd else { return [:] }
            if let number = placeholder.output.firstMatch(of: numbered).flatMap({ Int($0.output.1) }),
                let value = decoded(String(live[position..<valueEnd]), from: context), !value.isEmpty,
                !isWhole(value), values[number] == nil
            {
                values[number] = value
            }
            position = resume
        }
        return values
    }

    /// `text` with each numbered placeholder `values` has a value for replaced by that value, spelled for
    /// `context`; the others stay.
    static func restoring(_ values: [Int: String], in text: String, context: Context) -> String {
        guard !values.isEmpty, text.contains("redacted") else { return text }
        return text.replacing(numbered) { match in
            guard let number = Int(match.output.1), let value = values[number], match.output.0.hasPrefix("<"),
                let spelled = spelled(value, for: context)
            else { return String(match.output.0) }
            return spelled
        }
    }

    private static func decoded(_ text: String, from context: Context) -> String? {
        switch context {
        case .field, .text: text
        case .path: text.removingPercentEncoding
        case .form: text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        case .json: try? JSONDecoder().decode(String.self, from: Data("\"\(text)\"".utf8))
        }
    }

    private static func spelled(_ value: String, for context: Context) -> String? {
        switch context {
        case .field: value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) ? nil : value
        case .text, .path: value
        case .form: value.addingPercentEncoding(withAllowedCharacters: unreserved)
        case .json:
            (try? jsonEncoder.encode(value)).map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) }
        }
    }

    private static let unreserved = CharacterSet(charactersIn: "-._~").union(
        CharacterSet(charactersIn: "a"..."z")
    ).union(CharacterSet(charactersIn: "A"..."Z")).union(CharacterSet(charactersIn: "0"..."9"))

    private static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}

extension HARFile.Entry {
    /// The entry with its placeholders renumbered, in the order it lists its parts, and its sizes those of
    /// the text then written.
    func renumbered(by renumber: Renumbering) -> HARFile.Entry {
        func pairs(_ items: [HARFile.NameValue]) -> [HARFile.NameValue] {
            items.map { .init(name: renumber($0.name), value: renumber($0.value)) }
        }
        var entry = self
        entry.request.url = renumber(request.url)
        entry.request.queryString = pairs(request.queryString)
        entry.request.headers = pairs(request.headers)
        if let text = request.postData?.text {
            entry.request.postData?.text = renumber(text)
            entry.request.bodySize = entry.request.postData?.text.utf8.count ?? 0
        }
        entry.response.headers = pairs(response.headers)
        entry.response.redirectURL = renumber(response.redirectURL)
        if let text = response.content.text {
            let body: Data
            if response.content.encoding == "base64" {
                // Bytes that are not UTF-8: renumbered one for one as Latin-1 text.
                let bytes = HARFile.bytes(of: text, encoding: "base64")
                body = String(data: bytes, encoding: .isoLatin1).map { renumber($0) }?.data(using: .isoLatin1) ?? bytes
                entry.response.content.text = body.base64EncodedString()
            } else {
                entry.response.content.text = renumber(text)
                body = Data((entry.response.content.text ?? "").utf8)
            }
            entry.response.content.size = body.count
            entry.response.bodySize = body.count
        }
        return entry
    }
}
