/// A single-range `Range: bytes=…` request header (RFC 9110 §14.1.2) resolved against a body length.
enum ByteRange: Equatable {
    /// Bytes `first...last` of the body, both within it.
    case satisfiable(first: Int, last: Int)
    /// A syntactically valid range that selects nothing of the body (answer `416`).
    case unsatisfiable

    /// Resolves `header` against a body of `length` bytes; nil when the header should be ignored (absent,
    /// not `bytes`, malformed, or more than one range), which means sending the whole body.
    ///
    /// Accepts `bytes=a-b` (`b` past the end is clamped), `bytes=a-` and the suffix form `bytes=-n`.
    init?(header: String?, length: Int) {
        guard let header else { return nil }
        let trimmed = header.trimmingSpaces()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return nil }
        let spec = trimmed.dropFirst("bytes=".count).trimmingSpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let firstText = spec[..<dash].trimmingSpaces()
        let lastText = spec[spec.index(after: dash)...].trimmingSpaces()
        guard firstText.allSatisfy(\.isASCIIDigit), lastText.allSatisfy(\.isASCIIDigit) else { return nil }
        if firstText.isEmpty {
            guard let suffix = Int(lastText) else { return nil }
            guard suffix > 0, length > 0 else {
                self = .unsatisfiable
                return
            }
            self = .satisfiable(first: max(0, length - suffix), last: length - 1)
            return
        }
        guard let first = Int(firstText) else { return nil }
        let last = lastText.isEmpty ? nil : Int(lastText)
        if !lastText.isEmpty && last == nil { return nil }
        if let last, last < first { return nil }
        guard first < length else {
            self = .unsatisfiable
            return
        }
        self = .satisfiable(first: first, last: min(last ?? length - 1, length - 1))
    }
}

extension Character {
    /// Whether this is one of `0`...`9`.
    fileprivate var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
