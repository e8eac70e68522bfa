import Foundation

/// One `name=value` pair of an encoded query or form body, as written: the single parser behind redaction,
/// default-query filtering and credential placement.
struct EncodedQueryPair {
    /// The whole pair, as written.
    let text: Substring
    /// The name, still encoded.
    let encodedName: Substring
    /// The value, still encoded, or `nil` when the pair has no `=`.
    let encodedValue: Substring?

    /// The pairs of `query` (without `?`), in order; `keepingEmpty` keeps the empty pairs of `a&&b`, so
    /// that the pairs can be joined back into the same text.
    static func split(_ query: Substring, keepingEmpty: Bool = false) -> [EncodedQueryPair] {
        query.split(separator: "&", omittingEmptySubsequences: !keepingEmpty).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return EncodedQueryPair(text: pair, encodedName: pair, encodedValue: nil)
            }
            return EncodedQueryPair(
                text: pair, encodedName: pair[..<equals], encodedValue: pair[pair.index(after: equals)...])
        }
    }

    /// The name, percent-decoded (and `+` read as a space in form bodies).
    func name(plusIsSpace: Bool = false) -> String {
        Self.decode(encodedName, plusIsSpace: plusIsSpace)
    }

    /// The value, percent-decoded (and `+` read as a space in form bodies), if the pair has one.
    func value(plusIsSpace: Bool = false) -> String? {
        encodedValue.map { Self.decode($0, plusIsSpace: plusIsSpace) }
    }

    private static func decode(_ text: Substring, plusIsSpace: Bool) -> String {
        let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : String(text)
        return spaced.removingPercentEncoding ?? spaced
    }
}
