/// A UTC calendar date and time computed from epoch seconds without `Calendar` or `DateFormatter`, so
/// the server's timestamps never depend on the machine's locale or time zone.
package struct CivilTime {
    package let year: Int
    package let month: Int
    package let day: Int
    package let hour: Int
    package let minute: Int
    package let second: Int
    /// 0 for Sunday through 6 for Saturday.
    package let weekday: Int

    /// The UTC date and time of `epochSeconds` (seconds since 1970-01-01T00:00:00Z).
    package init(epochSeconds: Int) {
        let days = epochSeconds.floorDivided(by: 86_400)
        let secondOfDay = epochSeconds - days * 86_400
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
        second = secondOfDay % 60
        weekday = (days + 4).floorModulo(7)  // 1970-01-01 was a Thursday.
        // Howard Hinnant's civil_from_days.
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Seconds since the epoch of a UTC date and time (Hinnant's days_from_civil).
    package static func epochSeconds(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0)
        -> Int
    {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear.floorDivided(by: 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// `2026-11-01T09:30:00Z`.
    package var iso8601: String {
        "\(year)-\(Self.pad(month))-\(Self.pad(day))T\(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second))Z"
    }

    /// `2026-11-20 14:03:11`, Flickr's `datetaken`.
    package var dateAndTime: String {
        "\(year)-\(Self.pad(month))-\(Self.pad(day)) \(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second))"
    }

    /// RFC 9110's IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`.
    package var imfFixdate: String {
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let time = "\(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second))"
        return "\(weekdays[weekday]), \(Self.pad(day)) \(months[month - 1]) \(year) \(time) GMT"
    }

    /// RFC 850's obsolete form, `Sunday, 06-Nov-94 08:49:37 GMT`.
    package var rfc850: String {
        let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let time = "\(Self.pad(hour)):\(Self.pad(minute)):\(Self.pad(second))"
        return "\(weekdays[weekday]), \(Self.pad(day))-\(months[month - 1])-\(Self.pad(year % 100)) \(time) GMT"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}

extension Int {
    /// Division rounding towards negative infinity.
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder that has the divisor's sign.
    fileprivate func floorModulo(_ divisor: Int) -> Int {
        self - floorDivided(by: divisor) * divisor
    }
}
