package import Foundation

/// The lenient date parsing cookies use (RFC 6265bis §5.1.1): the first time, day, month and year found
/// among the tokens between delimiters, in any order, so `Mon, 10-Dec-2007 17:02:24 GMT`,
/// `Thursday, 01-Jan-1970 00:00:00 GMT` and `Mon Dec 10 16:32:30 2007` all parse. Two-digit years 70–99 are
/// 19xx and 00–69 are 20xx; a day past the end of its month, or a year before 1601, is no date.
package enum CookieDate {
    /// The date `text` names, or `nil`.
    package static func parse(_ text: some StringProtocol) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in Substring(text).utf8.split(whereSeparator: isDelimiter) {
            if time == nil, let found = Self.time(token) {
                time = found
            } else if day == nil, let found = leadingDigits(token, count: 1...2) {
                day = found
            } else if month == nil, let found = Self.month(token) {
                month = found
            } else if year == nil, let found = leadingDigits(token, count: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return Date(
            timeIntervalSince1970: TimeInterval(days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second))
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte) || (0x5B...0x60).contains(byte)
            || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// `count` digits at the start of `token`, followed by nothing or by a non-digit and anything.
    private static func leadingDigits(_ token: Substring.UTF8View.SubSequence, count: ClosedRange<Int>) -> Int? {
        let digits = token.prefix(while: isDigit)
        guard count.contains(digits.count) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time ( non-digit *OCTET )`, each field one or two digits.
    private static func time(_ token: Substring.UTF8View.SubSequence) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var rest = token[...]
        for index in 0..<3 {
            let digits = rest.prefix(while: isDigit)
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(digits.count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        if let next = rest.first, isDigit(next) { return nil }
        return (fields[0], fields[1], fields[2])
    }

    /// The month the token's first three letters name, case-insensitively (1–12).
    private static func month(_ token: Substring.UTF8View.SubSequence) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        return months.firstIndex(of: prefix).map { $0 + 1 }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
}
