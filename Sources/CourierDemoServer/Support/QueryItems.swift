import Foundation
package import Hummingbird

/// The query items of a request, in order, names and values percent-decoded (`+` stays a plus sign).
package struct QueryItems {
    /// The items in the order they appear; an item without `=` has an empty value.
    package let items: [(name: String, value: String)]

    package init(_ request: Request) {
        guard let query = RawRequestTarget(request).query, !query.isEmpty else {
            items = []
            return
        }
        items = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            return (name, value)
        }
    }

    /// The value of the first item called `name`.
    package subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// The integer value of `name`, `defaultValue` if absent; throws `BadRequest` if it is not an
    /// integer in `range`.
    package func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = self[name] else { return defaultValue }
        guard let value = Int(text), range.contains(value) else {
            throw BadRequest(message: "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// The integer value of `name`, nil if absent; throws `BadRequest` if it is not an integer in `range`.
    package func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        self[name] == nil ? nil : try integer(name, default: 0, in: range)
    }

    private static func decode(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
