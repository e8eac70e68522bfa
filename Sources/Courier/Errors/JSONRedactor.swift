/// Redacts secret members of a JSON text in place: every byte of the body is kept as it came (order, spacing,
/// escapes such as `\/`) except the values of members whose names are secret, which become
/// `"<redacted>"`. On the way it finds where the value at a decoding error's coding path starts, so an
/// error's snippet can show that part of the body.
///
/// Tolerant by design: a truncated or malformed body (often the very reason decoding failed) is redacted as
/// far as it parses and copied as it is from there; a secret value cut off by the end of the body is dropped.
struct JSONRedactor {
    private let input: [UInt8]
    private let isSecret: (String) -> Bool
    private let target: [any CodingKey]?
    private var position = 0
    private var output: [UInt8] = []
    /// Where the value at `target` starts in `output`.
    private var location: Int?

    /// Why scanning stopped before the end: the rest of the input is copied as it is.
    private struct Stop: Error {}

    /// `text` with secret members' values redacted, and the offset in the result where the value at
    /// `codingPath` starts (when given and found).
    static func redact(_ text: [UInt8], isSecret: @escaping (String) -> Bool, locating codingPath: [any CodingKey]?)
        -> (text: [UInt8], location: Int?)
    {
        var redactor = JSONRedactor(input: text, isSecret: isSecret, target: codingPath)
        redactor.output.reserveCapacity(text.count)
        do {
            try redactor.value(path: [], depth: 0)
            redactor.copyRest()
        } catch {
            redactor.copyRest()
        }
        return (redactor.output, redactor.location)
    }

    private init(input: [UInt8], isSecret: @escaping (String) -> Bool, target: [any CodingKey]?) {
        self.input = input
        self.isSecret = isSecret
        self.target = target
    }

    /// One element of the path to the value being scanned.
    private enum Step {
        case member(String)
        case element(Int)
    }

    private mutating func copyRest() {
        if position < input.count { output.append(contentsOf: input[position...]) }
        position = input.count
    }

    private mutating func value(path: [Step], depth: Int) throws(Stop) {
        copyWhitespace()
        guard position < input.count, depth < 256 else { throw Stop() }
        if location == nil, let target, matches(path, target) { location = output.count }
        switch input[position] {
        case UInt8(ascii: "{"): try object(path: path, depth: depth)
        case UInt8(ascii: "["): try array(path: path, depth: depth)
        case UInt8(ascii: "\""): _ = try string(copying: true)
        default: try scalar(copying: true)
        }
    }

    private mutating func object(path: [Step], depth: Int) throws(Stop) {
        copyByte()
        copyWhitespace()
        if try peek() == UInt8(ascii: "}") { return copyByte() }
        while true {
            copyWhitespace()
            guard try peek() == UInt8(ascii: "\"") else { throw Stop() }
            let name = try string(copying: true)
            copyWhitespace()
            guard try peek() == UInt8(ascii: ":") else { throw Stop() }
            copyByte()
            if isSecret(name) {
                copyWhitespace()
                if location == nil, let target, matches(path + [.member(name)], target) { location = output.count }
                try skipValue(depth: depth + 1)
                output.append(contentsOf: Array("\"\(Redaction.placeholder)\"".utf8))
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

    /// A string token, copied or skipped; returns its decoded text (escapes other than `\uXXXX` resolved).
    private mutating func string(copying: Bool) throws(Stop) -> String {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                if copying { output.append(contentsOf: input[start..<position]) }
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\"), position + 1 < input.count {
                decoded.append(input[position + 1])
                position += 2
            } else {
                decoded.append(byte)
                position += 1
            }
        }
        position = start
        throw Stop()
    }

    /// A number, `true`, `false` or `null`: everything up to the next delimiter.
    private mutating func scalar(copying: Bool) throws(Stop) {
        let start = position
        while position < input.count, !Self.isDelimiter(input[position]) { position += 1 }
        guard position > start else { throw Stop() }
        if copying { output.append(contentsOf: input[start..<position]) }
    }

    /// Moves past one value without copying it; a value cut off by the end of the input is dropped whole.
    private mutating func skipValue(depth: Int) throws(Stop) {
        guard position < input.count, depth < 256 else { throw Stop() }
        switch input[position] {
        case UInt8(ascii: "\""):
            do { _ = try string(copying: false) } catch { position = input.count }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var nesting = 0
            while position < input.count {
                switch input[position] {
                case UInt8(ascii: "\""):
                    do { _ = try string(copying: false) } catch { position = input.count }
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
