import Foundation
import HTTPTypes

/// The directives of every `Cache-Control` field line of a request or response (RFC 9111 §5.2), parsed
/// leniently: names are case-insensitive, commas inside quoted strings don't split, a directive whose
/// argument is malformed (`max-age='60'`) is ignored, and of a repeated time directive the lowest value counts
/// (the most restrictive). Delta-seconds past 2³¹ count as 2³¹.
struct CacheControl {
    private(set) var maxAge: Int?
    private(set) var sharedMaxAge: Int?
    private(set) var maxStale: Int?
    private(set) var minFresh: Int?
    private(set) var staleWhileRevalidate: Int?
    private(set) var staleIfError: Int?
    private(set) var noStore = false
    private(set) var noCache = false
    private(set) var isPrivate = false
    private(set) var isPublic = false
    private(set) var mustRevalidate = false
    private(set) var onlyIfCached = false
    private(set) var immutable = false
    /// No directive was present (so a request's `Pragma: no-cache` counts).
    private(set) var isEmpty = true

    init(_ fields: HTTPFields) {
        for line in fields[values: .cacheControl] {
            for (name, argument) in Self.directives(in: line) { apply(name, argument) }
        }
    }

    private mutating func apply(_ name: String, _ argument: String?) {
        isEmpty = false
        switch name {
        case "max-age": Self.lower(&maxAge, argument)
        case "s-maxage": Self.lower(&sharedMaxAge, argument)
        // The most restrictive min-fresh is the highest.
        case "min-fresh":
            if let argument, let seconds = Self.deltaSeconds(argument) { minFresh = max(minFresh ?? seconds, seconds) }
        case "stale-while-revalidate": Self.lower(&staleWhileRevalidate, argument)
        case "stale-if-error": Self.lower(&staleIfError, argument)
        case "max-stale":
            // Without an argument: any staleness is acceptable.
            if argument == nil { maxStale = Int(Int32.max) } else { Self.lower(&maxStale, argument) }
        case "no-store": noStore = true
        // With field names (`no-cache="Set-Cookie"`), a private cache may treat it as unqualified.
        case "no-cache": noCache = true
        case "private": isPrivate = true
        case "public": isPublic = true
        case "must-revalidate", "proxy-revalidate": mustRevalidate = true
        case "only-if-cached": onlyIfCached = true
        case "immutable": immutable = true
        default: break
        }
    }

    /// Keeps the lower of `current` and `argument` read as delta-seconds; a malformed argument is ignored.
    private static func lower(_ current: inout Int?, _ argument: String?) {
        guard let argument, let seconds = deltaSeconds(argument) else { return }
        current = min(current ?? seconds, seconds)
    }

    /// `1*DIGIT` (or the same in double quotes, which recipients accept), capped at 2³¹.
    static func deltaSeconds(_ text: some StringProtocol) -> Int? {
        var digits = Substring(text)
        if digits.count >= 2, digits.first == "\"", digits.last == "\"" { digits = digits.dropFirst().dropLast() }
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let cap = 2_147_483_648
        guard digits.count <= 10, let value = Int(digits) else { return cap }
        return min(value, cap)
    }

    /// The `name[=argument]` pairs of one field line, names lowercased, quotes kept on arguments. Scans the
    /// UTF-8 bytes once; commas inside double quotes (with `\` escapes) don't split.
    static func directives(in line: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var utf8 = line.utf8[...]
        while !utf8.isEmpty {
            var inQuotes = false
            var escaped = false
            let end =
                utf8.firstIndex { byte in
                    defer {
                        if escaped {
                            escaped = false
                        } else if inQuotes && byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inQuotes.toggle()
                        }
                    }
                    return byte == UInt8(ascii: ",") && !inQuotes && !escaped
                } ?? utf8.endIndex
            let item = trimmed(utf8[..<end])
            utf8 = end == utf8.endIndex ? utf8[end...] : utf8[utf8.index(after: end)...]
            guard !item.isEmpty else { continue }
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: trimmed(item[..<equals]), as: UTF8.self).lowercased()
                result.append((name, String(decoding: trimmed(item[item.index(after: equals)...]), as: UTF8.self)))
            } else {
                result.append((String(decoding: item, as: UTF8.self).lowercased(), nil))
            }
        }
        return result
    }

    /// `bytes` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        var bytes = bytes
        while let first = bytes.first, first == 0x20 || first == 0x09 { bytes.removeFirst() }
        while let last = bytes.last, last == 0x20 || last == 0x09 { bytes.removeLast() }
        return bytes
    }
}
