import Foundation

/// Reads a `Retry-After` field: delay-seconds (`120`) or an HTTP-date in any of its three forms.
enum RetryAfter {
    /// The delay the field asks for (never negative), or `nil` when it is absent or unreadable.
    static func delay(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((interval * 1000).rounded(.up)))
    }
}
