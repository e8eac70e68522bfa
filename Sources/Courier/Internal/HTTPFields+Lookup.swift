import HTTPTypes

/// Field lookups for the request path. `HTTPFields`' own subscript joins the values it finds through a
/// generic lazy sequence, which costs about 4,500 instructions for one `Content-Length` (callgrind, issue
/// #14); these scan the fields once and return a single field's value as it is.
extension HTTPFields {
    /// The value of the field named `name`; several such fields are joined as `HTTPFields`' subscript joins
    /// them (`, `, or `; ` for `Cookie`).
    func value(of name: HTTPField.Name) -> String? {
        var found: String?
        var joined: String?
        for field in self where field.name == name {
            if let first = found {
                joined = (joined ?? first) + (name == .cookie ? "; " : ", ") + field.value
            } else {
                found = field.value
            }
        }
        return joined ?? found
    }

    /// Whether a field is named `name`.
    func has(_ name: HTTPField.Name) -> Bool {
        for field in self where field.name == name { return true }
        return false
    }

    /// How many fields are named `name`.
    func count(of name: HTTPField.Name) -> Int {
        var count = 0
        for field in self where field.name == name { count += 1 }
        return count
    }
}

extension HTTPField.Name {
    /// The name for `rawName` as a server wrote it, without validating or lower-casing it again when it is
    /// one of the fields most responses carry, spelled the usual way: `HTTPField.Name(_:)` checks every byte
    /// and lower-cases a copy (about 400 instructions a field). Any other spelling takes that path.
    static func parsing(_ rawName: String) -> HTTPField.Name? {
        let utf8 = rawName.utf8
        guard let first = utf8.first else { return nil }
        let candidate: HTTPField.Name
        switch (utf8.count, first) {
        case (3, UInt8(ascii: "A")): candidate = .age
        case (4, UInt8(ascii: "D")): candidate = .date
        case (4, UInt8(ascii: "E")): candidate = .eTag
        case (4, UInt8(ascii: "L")): candidate = .link
        case (4, UInt8(ascii: "V")): candidate = .vary
        case (6, UInt8(ascii: "S")): candidate = .server
        case (7, UInt8(ascii: "E")): candidate = .expires
        case (8, UInt8(ascii: "L")): candidate = .location
        case (10, UInt8(ascii: "C")): candidate = .connection
        case (10, UInt8(ascii: "S")): candidate = .setCookie
        case (12, UInt8(ascii: "C")): candidate = .contentType
        case (13, UInt8(ascii: "A")): candidate = .acceptRanges
        case (13, UInt8(ascii: "C")): candidate = .cacheControl
        case (13, UInt8(ascii: "L")): candidate = .lastModified
        case (14, UInt8(ascii: "C")): candidate = .contentLength
        case (16, UInt8(ascii: "C")): candidate = .contentEncoding
        case (17, UInt8(ascii: "T")): candidate = .transferEncoding
        default: return HTTPField.Name(rawName)
        }
        return candidate.rawName == rawName ? candidate : HTTPField.Name(rawName)
    }
}
