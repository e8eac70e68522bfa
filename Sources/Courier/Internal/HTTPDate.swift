import Foundation

/// HTTP-dates (RFC 9110 §5.6.7) in all three forms a recipient must accept:
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT`,
/// and ANSI C's asctime form `Sun Nov  6 08:49:37 1994`. Parsed by hand: no formatter or calendar per call.
enum HTTPDate {
    /// The date `text` names, or `nil` when it is none of the three forms.
    static func parse(_ text: some StringProtocol) -> Date? {
        let parts = Substring(text).split(separator: " ", omittingEmptySubsequences: true)
        switch parts.count {
        case 6 where parts[0].hasSuffix(",") && parts[5] == "GMT":
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT".
            guard parts[1].count == 2, parts[3].count == 4 else { return nil }
            return date(day: parts[1], month: parts[2], year: Int(parts[3]), time: parts[4])
        case 4 where parts[0].hasSuffix(",") && parts[3] == "GMT":
            // RFC 850: day-name "," SP day "-" month "-" 2DIGIT-year SP time SP "GMT".
            let pieces = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard pieces.count == 3, pieces[0].count == 2, pieces[2].count == 2, let short = Int(pieces[2]) else {
                return nil
            }
            // RFC 9110: a two-digit year more than 50 years in the future is taken as the past century's.
            return date(day: pieces[0], month: pieces[1], year: fourDigitYear(short), time: parts[2])
        case 5:
            // asctime: day-name SP month SP ( 2DIGIT / ( SP 1DIGIT )) SP time SP year.
            guard parts[4].count == 4 else { return nil }
            return date(day: parts[2], month: parts[1], year: Int(parts[4]), time: parts[3])
        default:
            return nil
        }
    }

    private static func date(day: Substring, month: Substring, year: Int?, time: Substring) -> Date? {
        guard let day = Int(day), (1...31).contains(day), let year, let month = months.firstIndex(of: String(month)),
            let seconds = secondsOfDay(time)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + seconds))
    }

    /// `hh:mm:ss` as seconds since midnight.
    private static func secondsOfDay(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces.allSatisfy({ $0.count == 2 }), let hour = Int(pieces[0]),
            let minute = Int(pieces[1]), let second = Int(pieces[2]), hour < 24, minute < 60, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private static func fourDigitYear(_ twoDigits: Int) -> Int {
        let thisYear = 1970 + Int(Date().timeIntervalSince1970 / 31_556_952)
        let candidate = thisYear - thisYear % 100 + twoDigits
        return candidate > thisYear + 50 ? candidate - 100 : candidate
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
