import CourierDemoServer
import Foundation

/// A reader for the one XML shape the demo server accepts: a root element holding only simple child
/// elements with text, such as `<user><login>octocat</login><id>583231</id></user>`.
///
/// It allows an XML declaration, comments, whitespace between elements and the five predefined entities
/// plus numeric character references; anything else (attributes on children, nesting, CDATA, mismatched
/// tags) is an error. Not a general XML parser, and not meant to be one.
struct FlatXML {
    /// The root element's name.
    let root: String
    /// The children in order, text unescaped.
    let children: [(name: String, text: String)]

    /// Why a document could not be read.
    struct ParseError: Error {
        let message: String
    }

    init(_ text: String) throws(ParseError) {
        var scanner = Substring(text)
        Self.skipMisc(&scanner)
        guard let rootName = Self.openTag(&scanner) else { throw ParseError(message: "expected a root element") }
        var children: [(name: String, text: String)] = []
        while true {
            Self.skipMisc(&scanner)
            if scanner.hasPrefix("</") {
                guard Self.closeTag(&scanner) == rootName else {
                    throw ParseError(message: "expected </\(rootName)>")
                }
                break
            }
            guard let name = Self.openTag(&scanner) else { throw ParseError(message: "expected a child element") }
            let raw = scanner.prefix { $0 != "<" }
            scanner = scanner.dropFirst(raw.count)
            guard Self.closeTag(&scanner) == name else { throw ParseError(message: "expected </\(name)>") }
            children.append((name, try Self.unescape(raw)))
        }
        Self.skipMisc(&scanner)
        guard scanner.isEmpty else { throw ParseError(message: "unexpected content after </\(rootName)>") }
        root = rootName
        self.children = children
    }

    /// The text of the first child called `name`.
    subscript(name: String) -> String? {
        children.first { $0.name == name }?.text
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, for element content.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Skips whitespace, the XML declaration and comments.
    private static func skipMisc(_ scanner: inout Substring) {
        while true {
            scanner = scanner.drop { $0.isWhitespace }
            let terminator: String
            if scanner.hasPrefix("<?") {
                terminator = "?>"
            } else if scanner.hasPrefix("<!--") {
                terminator = "-->"
            } else {
                return
            }
            guard let end = scanner.range(of: terminator) else { return }
            scanner = scanner[end.upperBound...]
        }
    }

    /// Reads `<name>` and returns the name, or nil (leaving the scanner alone) if there is none.
    private static func openTag(_ scanner: inout Substring) -> String? {
        guard scanner.hasPrefix("<"), !scanner.hasPrefix("</") else { return nil }
        let name = scanner.dropFirst().prefix { $0 != ">" }
        guard isName(name), scanner.dropFirst(name.count + 1).hasPrefix(">") else { return nil }
        scanner = scanner.dropFirst(name.count + 2)
        return String(name)
    }

    /// Reads `</name>` and returns the name, or nil.
    private static func closeTag(_ scanner: inout Substring) -> String? {
        guard scanner.hasPrefix("</") else { return nil }
        let name = scanner.dropFirst(2).prefix { $0 != ">" }
        guard scanner.dropFirst(name.count + 2).hasPrefix(">") else { return nil }
        scanner = scanner.dropFirst(name.count + 3)
        let trimmed = name.trimmingSpaces()
        return isName(Substring(trimmed)) ? trimmed : nil
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "_-.:".contains($0) }
    }

    private static func unescape(_ raw: Substring) throws(ParseError) -> String {
        var text = ""
        var rest = raw
        while let ampersand = rest.firstIndex(of: "&") {
            text += rest[..<ampersand]
            guard let semicolon = rest[ampersand...].firstIndex(of: ";") else {
                throw ParseError(message: "unterminated entity reference")
            }
            let entity = rest[rest.index(after: ampersand)..<semicolon]
            guard let character = character(for: entity) else {
                throw ParseError(message: "unknown entity &\(entity);")
            }
            text.append(character)
            rest = rest[rest.index(after: semicolon)...]
        }
        return text + rest
    }

    private static func character(for entity: Substring) -> Character? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let code: UInt32?
            if entity.hasPrefix("#x") {
                code = UInt32(entity.dropFirst(2), radix: 16)
            } else if entity.hasPrefix("#") {
                code = UInt32(entity.dropFirst())
            } else {
                code = nil
            }
            return code.flatMap(Unicode.Scalar.init).map(Character.init)
        }
    }
}
