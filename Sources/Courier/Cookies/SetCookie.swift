import Foundation

/// One `Set-Cookie` field value, parsed as RFC 6265bis §5.6 says: the name and value before the first `;`,
/// then the attributes a jar understands (the last of each wins; unknown ones are ignored). `nil` when the
/// field must be ignored whole: a control character, no `=` or an empty name, or a name and value longer
/// than 4096 bytes together.
struct SetCookie: Equatable {
    var name: String
    var value: String
    var expires: Date?
    /// `Max-Age` in seconds (≤ 0: expire now), which outranks `Expires`.
    var maxAge: Int64?
    /// `Domain`, lowercased, without a leading dot.
    var domain: String?
    /// `Path` when it starts with `/` (else the default path applies).
    var path: String?
    var isSecure = false
    var isHTTPOnly = false
    var sameSite: Cookie.SameSite = .default

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        // Any control character but HTAB makes the whole field be ignored.
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        let parts = bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        // RFC 6265 §5.2: no `=`, or an empty name, and the field is ignored (RFC 6265bis would keep a nameless
        // cookie, as browsers now do; the http-state suite and URLSession's HTTPCookie follow RFC 6265).
        let pair = parts[0]
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        name = Self.trimmed(pair[..<equals])
        value = Self.trimmed(pair[(equals + 1)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= 4096 else { return nil }
        for attribute in parts.dropFirst() {
            let equals = attribute.firstIndex(of: UInt8(ascii: "="))
            let key = Self.trimmed(attribute[..<(equals ?? attribute.endIndex)]).lowercased()
            let argument = equals.map { Self.trimmed(attribute[($0 + 1)...]) } ?? ""
            guard argument.utf8.count <= 1024 else { continue }
            apply(key, argument)
        }
    }

    private mutating func apply(_ key: String, _ argument: String) {
        switch key {
        case "expires":
            if let date = CookieDate.parse(argument) { expires = date }
        case "max-age":
            // An optional '-' then digits only; anything else is ignored.
            let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
            let magnitude = Int64(digits) ?? Int64.max  // more digits than fit: as far away as can be
            maxAge = argument.hasPrefix("-") ? -1 : magnitude
        case "domain":
            guard !argument.isEmpty else { return }
            // One leading dot is dropped; `..example.org` keeps one and then matches no host.
            domain = (argument.hasPrefix(".") ? String(argument.dropFirst()) : argument).lowercased()
        case "path":
            path = argument.hasPrefix("/") ? argument : nil
        case "secure":
            isSecure = true
        case "httponly":
            isHTTPOnly = true
        case "samesite":
            sameSite = Cookie.SameSite(rawValue: argument.lowercased()) ?? .default
        default:
            break
        }
    }

    /// The bytes as text with leading and trailing spaces and tabs removed.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return String(decoding: slice, as: UTF8.self)
    }

    /// The `Set-Cookie` values in `joined`, a field that URLSession (or a proxy) made by joining several with
    /// `, `. A comma outside double quotes starts a new cookie only where a `name=` follows it before any `;`,
    /// so the commas inside `Expires=Wed, 09 Jun 2027 …` stay where they are. What stays ambiguous: a value
    /// with an unquoted `,name=` in it (`k=a,b=c`) is read as two cookies, and a joined field holding a
    /// cookie without `=` is read as part of the one before it.
    static func split(joined: String) -> [String] {
        var values: [String] = []
        let text = Substring(joined)
        var start = text.startIndex
        var inQuotes = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                inQuotes.toggle()
            } else if character == ",", !inQuotes, Self.startsCookie(text[text.index(after: index)...]) {
                values.append(text[start..<index].trimmingCharacters(in: .whitespaces))
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        let last = text[start...].trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { values.append(last) }
        return values.filter { !$0.isEmpty }
    }

    /// Whether `rest` begins with `name=` (a token without spaces) before any `;` or `,`.
    private static func startsCookie(_ rest: Substring) -> Bool {
        let next = rest.prefix { $0 != ";" && $0 != "," }
        guard let equals = next.firstIndex(of: "=") else { return false }
        let name = next[..<equals].trimmingCharacters(in: .whitespaces)
        return !name.isEmpty && !name.contains(" ")
    }
}
