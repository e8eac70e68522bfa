/// Redacts secret members of a JSON text in place: every byte of the body is kept as it came (order, spacing,
/// escapes such as `\/`) except the values of members whose names are secret, which become
/// `"<redacted>"`. On the way it finds where the value at a decoding error's coding path starts, so an
/// error's snippet can show that part of the body.
///
/// Tolerant by design: a truncated or malformed body (often the very reason decoding failed) is redacted as
/// far as it parses, and by pattern from there (the value after any quoted secret name and a colon); a
/// secret value cut off by the end of the body is dropped. Works on bytes, so a body that is not valid
/// UTF-8 is redacted too.
struct JSONRedactor {
    private let input: [UInt8]
    private let isSecret: (String) -> Bool
    /// What a secret value is written as, given its text (a string's without the quotes).
    private let naming: (Substring) -> String
    private let target: [any CodingKey]?
    private var position = 0
    private var output: [UInt8] = []
    /// Where the value at `target` starts in `output`.
    private var location: Int?

    /// Why scanning stopped before the end: the rest of the input is copied as it is.
    private struct Stop: Error {}

    /// `text` with secret members' values redacted, and the offset in the result where the value at
    /// `codingPath` starts (when given and found).
    static func redact(
        _ text: [UInt8], isSecret: @escaping (String) -> Bool,
        naming: @escaping (Substring) -> String = Redaction.plainName, locating codingPath: [any CodingKey]?
    ) -> (text: [UInt8], location: Int?) {
        var redactor = JSONRedactor(input: text, isSecret: isSecret, naming: naming, target: codingPath)
        redactor.output.reserveCapacity(text.count)
        // Every top-level value (JSON Lines bodies hold several); where the text stops parsing, the rest is
        // redacted by pattern, so that nothing after a syntax error escapes.
        do {
            while true {
                redactor.copyWhitespace()
                guard redactor.position < text.count else { break }
                try redactor.value(path: [], depth: 0)
            }
        } catch {
            redactor.redactLeniently()
        }
        return (redactor.output, redactor.location)
    }

    private init(
        input: [UInt8], isSecret: @escaping (String) -> Bool, naming: @escaping (Substring) -> String,
        target: [any CodingKey]?
    ) {
        self.input = input
        self.isSecret = isSecret
        self.naming = naming
        self.target = target
    }

    /// One element of the path to the value being scanned.
    private enum Step {
        case member(String)
        case element(Int)
    }

    /// The rest of the input, copied except for the value after every quoted name (`"name":` or `'name':`)
    /// that is secret.
    private mutating func redactLeniently() {
        while position < input.count {
            let byte = input[position]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") else {
                copyByte()
                continue
            }
            guard let name = quoted(copying: true) else {
                copyByte()  // a quote that never closes (`)]}'` before JSON): an ordinary character
                continue
            }
            let afterName = position
            while position < input.count, Self.isWhitespace(input[position]) { position += 1 }
            guard position < input.count, input[position] == UInt8(ascii: ":"), isSecret(name) else {
                position = afterName
                continue
            }
            output.append(contentsOf: input[afterName...position])
            position += 1
            copyWhitespace()
            let start = position
            if position < input.count, input[position] == UInt8(ascii: "'") {
                _ = quoted(copying: false)
            } else {
                skipValue()
            }
            appendName(ofValueFrom: start)
        }
    }

    /// The secret value skipped from `start` to `position`, as a string of what ``naming`` calls it (given a
    /// string's text without its quotes, as escaped in the input).
    private mutating func appendName(ofValueFrom start: Int) {
        var value = input[start..<position]
        if let first = value.first, first == UInt8(ascii: "\"") || first == UInt8(ascii: "'"), value.count >= 2,
            value.last == first
        {
            value = value.dropFirst().dropLast()
        }
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: naming(Substring(decoding: value, as: UTF8.self)).utf8)
        output.append(UInt8(ascii: "\""))
    }

    /// A string in `"` or `'` quotes from `position`, copied or skipped; its decoded text, or `nil` (and
    /// `position` unchanged) when it does not end.
    private mutating func quoted(copying: Bool) -> String? {
        let quote = input[position]
        let start = position
        position += 1
        var decoded: [UInt8] = []
        while position < input.count {
            let byte = input[position]
            if byte == quote {
                position += 1
                if copying { output.append(contentsOf: input[start..<position]) }
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\"), position + 1 < input.count {
                position += 1
                decodeEscape(into: &decoded)
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        position = start
        return nil
    }

    /// Decodes the escape after a backslash at `position - 1`: `\uXXXX` (with surrogate pairs) and the
    /// one-character escapes; moves past it.
    private mutating func decodeEscape(into decoded: inout [UInt8]) {
        let byte = input[position]
        position += 1
        switch byte {
        case UInt8(ascii: "u"):
            guard var scalar = hex4() else { return decoded.append(byte) }
            if (0xD800..<0xDC00).contains(scalar), position + 1 < input.count,
                input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u")
            {
                position += 2
                if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
            }
            decoded.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "?").utf8))
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        default: decoded.append(byte)
        }
    }

    /// Four hex digits at `position`, consumed; `nil` (nothing consumed) otherwise.
    private mutating func hex4() -> UInt32? {
        guard position + 4 <= input.count,
            let value = UInt32(String(decoding: input[position..<position + 4], as: UTF8.self), radix: 16)
        else { return nil }
        position += 4
        return value
    }

    private mutating func value(path: [Step], depth: Int) throws(Stop) {
        copyWhitespace()
        guard position < input.count, depth < 256 else { throw Stop() }
        if location == nil, let target, matches(path, target) { location = output.count }
        switch input[position] {
        case UInt8(ascii: "{"): try object(path: path, depth: depth)
        case UInt8(ascii: "["): try array(path: path, depth: depth)
        case UInt8(ascii: "\""): _ = try string()
        default: try scalar()
        }
    }

    private mutating func object(path: [Step], depth: Int) throws(Stop) {
        copyByte()
        copyWhitespace()
        if try peek() == UInt8(ascii: "}") { return copyByte() }
        while true {
            copyWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw Stop() }
            let name = try string()
            copyWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw Stop() }
            copyByte()
            if isSecret(name) {
                copyWhitespace()
                if location == nil, let target, matches(path + [.member(name)], target) { location = output.count }
                let start = position
                skipValue()
                appendName(ofValueFrom: start)
            } else {
                try value(path: path + [.member(name)], depth: depth + 1)
            }
            copyWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): copyByte()
            case UInt8(ascii: "}"): return copyByte()
            default: throw Stop()
            }
        }
    }

    private mutating func array(path: [Step], depth: Int) throws(Stop) {
        copyByte()
        copyWhitespace()
        if try peek() == UInt8(ascii: "]") { return copyByte() }
        var index = 0
        while true {
            try value(path: path + [.element(index)], depth: depth + 1)
            index += 1
            copyWhitespace()
            switch try peek() {
            case UInt8(ascii: ","): copyByte()
            case UInt8(ascii: "]"): return copyByte()
            default: throw Stop()
            }
        }
    }

    /// A string token, copied; returns its decoded text.
    private mutating func string() throws(Stop) -> String {
        guard let text = quoted(copying: true) else { throw Stop() }
        return text
    }

    /// A number, `true`, `false` or `null`: everything up to the next delimiter.
    private mutating func scalar() throws(Stop) {
        let start = position
        while position < input.count, !Self.isDelimiter(input[position]) { position += 1 }
        guard position > start else { throw Stop() }
        output.append(contentsOf: input[start..<position])
    }

    /// Moves past one value without copying it; a value cut off by the end of the input is dropped whole.
    private mutating func skipValue() {
        guard position < input.count else { return }
        switch input[position] {
        case UInt8(ascii: "\""):
            if quoted(copying: false) == nil { position = input.count }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            while position < input.count {
                switch input[position] {
                case UInt8(ascii: "\""):
                    if quoted(copying: false) == nil { position = input.count }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    nesting -= 1
                    if nesting == 0 {
                        position += 1
                        return
                    }
                default: break
                }
                position += 1
            }
        default:
            while position < input.count, !Self.isDelimiter(input[position]) { position += 1 }
        }
    }

    private mutating func peek() throws(Stop) -> UInt8 {
        guard position < input.count else { throw Stop() }
        return input[position]
    }

    private mutating func copyByte() {
        output.append(input[position])
        position += 1
    }

    private mutating func copyWhitespace() {
        while position < input.count, Self.isWhitespace(input[position]) { copyByte() }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isWhitespace(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }

    /// Whether `path` is `target`: array elements by index, members by name (also without regard to case
    /// and `_`, for keys a decoder converted from snake case).
    private func matches(_ path: [Step], _ target: [any CodingKey]) -> Bool {
        guard path.count == target.count else { return false }
        for (step, key) in zip(path, target) {
            switch step {
            case .element(let index):
                guard key.intValue == index else { return false }
            case .member(let name):
                guard name == key.stringValue || Self.loose(name) == Self.loose(key.stringValue) else { return false }
            }
        }
        return true
    }

    private static func loose(_ name: String) -> String { name.lowercased().filter { $0 != "_" } }
}
