import Foundation

/// HTTP-dates (RFC 9110 §5.6.7) in all three forms a recipient must accept:
/// IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850 form `Sunday, 06-Nov-94 08:49:37 GMT`,
/// and ANSI C's asctime form `Sun Nov  6 08:49:37 1994`. Parsed by hand: no formatter or calendar per call.
///
/// Leniency: a one-digit day is accepted in every form (senders get it wrong), the day name is checked only
/// for its shape, and numbers must be plain ASCII digits. A day past the end of its month is refused.
enum HTTPDate {
    /// The date `text` names, or `nil` when it is none of the three forms. `now` decides the century of an
    /// RFC 850 two-digit year.
    static func parse(_ text: some StringProtocol, now: Date = Date()) -> Date? {
        let parts = Substring(text).split(separator: " ", omittingEmptySubsequences: true)
        switch parts.count {
        case 6 where parts[0].count == 4 && parts[0].hasSuffix(",") && parts[5] == "GMT":
            // IMF-fixdate: day-name "," SP day SP month SP year SP time SP "GMT".
            guard parts[3].count == 4 else { return nil }
            return date(day: parts[1], month: parts[2], year: number(parts[3]), time: parts[4])
        case 4 where parts[0].count >= 7 && parts[0].hasSuffix(",") && parts[3] == "GMT":
            // RFC 850: day-name "," SP day "-" month "-" 2DIGIT-year SP time SP "GMT".
            let pieces = parts[1].split(separator: "-", omittingEmptySubsequences: false)
            guard pieces.count == 3, pieces[2].count == 2, let short = number(pieces[2]) else { return nil }
            return date(day: pieces[0], month: pieces[1], year: fourDigitYear(short, now: now), time: parts[2])
        case 5 where parts[0].count == 3:
            // asctime: day-name SP month SP ( 2DIGIT / ( SP 1DIGIT )) SP time SP year.
            guard parts[4].count == 4 else { return nil }
            return date(day: parts[2], month: parts[1], year: number(parts[4]), time: parts[3])
        default:
            return nil
        }
    }

    private static func date(day: Substring, month: Substring, year: Int?, time: Substring) -> Date? {
        guard (1...2).contains(day.count), let day = number(day), let year,
            let monthIndex = months.firstIndex(of: String(month)), let seconds = secondsOfDay(time),
            (1...CivilDate.daysIn(month: monthIndex + 1, year: year)).contains(day)
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + seconds))
    }

    /// `text` as a number when it is one to four ASCII digits and nothing else (no sign, no spaces).
    private static func number(_ text: Substring) -> Int? {
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(text)
    }

    /// `hh:mm:ss` as seconds since midnight (a leap second, `:60`, is accepted).
    private static func secondsOfDay(_ text: Substring) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        guard pieces.count == 3, pieces.allSatisfy({ $0.count == 2 }), let hour = number(pieces[0]),
            let minute = number(pieces[1]), let second = number(pieces[2]), hour < 24, minute < 60, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    /// RFC 9110: a two-digit year that would be more than 50 years in the future is in the past century.
    private static func fourDigitYear(_ twoDigits: Int, now: Date) -> Int {
        let thisYear = CivilDate.year(of: now)
        let candidate = thisYear - thisYear % 100 + twoDigits
        return candidate > thisYear + 50 ? candidate - 100 : candidate
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
