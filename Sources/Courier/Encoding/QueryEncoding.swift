/// How lists and booleans are written in queries and form bodies.
///
/// The defaults (`a=1&a=2`, `true`/`false`) are what most servers read; PHP and Rails APIs usually want
/// ``ArrayEncoding/brackets``.
public struct QueryEncoding: Sendable, Hashable {
    /// How a list value is written.
    public enum ArrayEncoding: Sendable, Hashable {
        /// `tag=a&tag=b` (the default).
        case repeatedKey
        /// `tag[]=a&tag[]=b`.
        case brackets
        /// `tag=a,b` (each element is percent-encoded, so a comma inside one stays `%2C`).
        case commaSeparated
    }

    /// How a boolean value is written.
    public enum BoolEncoding: Sendable, Hashable {
        /// `true` / `false` (the default).
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How lists are written; `.repeatedKey` by default.
    public var arrays: ArrayEncoding
    /// How booleans are written; `.literal` by default.
    public var bools: BoolEncoding

    /// Creates an encoding.
    public init(arrays: ArrayEncoding = .repeatedKey, bools: BoolEncoding = .literal) {
        self.arrays = arrays
        self.bools = bools
    }
}

/// Collects percent-encoded `name=value` pairs after an optional prefix (a path), writing `&` between
/// pairs and `firstSeparator` (`?`, or `&` after a query already in the prefix) before the first.
struct QueryWriter {
    private(set) var bytes: [UInt8]
    private var hasPairs = false
    private let firstSeparator: UInt8?

    init(prefix: String = "", firstSeparator: UInt8? = nil, capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(prefix.utf8.count + capacity)
        bytes.append(contentsOf: prefix.utf8)
        self.firstSeparator = firstSeparator
    }

    /// Starts a pair: writes the separator and the encoded name and `=`.
    mutating func startPair(name: String, escaping: PercentEncoding) {
        if hasPairs {
            bytes.append(UInt8(ascii: "&"))
        } else if let firstSeparator {
            bytes.append(firstSeparator)
        }
        hasPairs = true
        escaping.append(name, to: &bytes)
        bytes.append(UInt8(ascii: "="))
    }

    /// Writes a value, or a comma and a value within a comma-joined list.
    mutating func appendValue(_ value: String, escaping: PercentEncoding, afterComma: Bool = false) {
        if afterComma { bytes.append(UInt8(ascii: ",")) }
        escaping.append(value, to: &bytes)
    }

    /// Everything written, prefix included.
    var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension QueryEncoding {
    /// Writes `parameters` as percent-encoded pairs. Nested objects become `name[key]`; lists of lists or
    /// objects are indexed (`name[0][key]`) whatever ``arrays`` says, because no other form round-trips.
    func serialize(
        _ parameters: some Sequence<QueryParameter>, escaping: PercentEncoding, into writer: inout QueryWriter
    ) {
        for parameter in parameters {
            append(parameter.value, name: parameter.name, escaping: escaping, into: &writer)
        }
    }

    /// The percent-encoded form of `query`.
    func serialize(_ query: Query, escaping: PercentEncoding) -> String {
        var writer = QueryWriter(capacity: query.parameters.count * 16)
        serialize(query.parameters, escaping: escaping, into: &writer)
        return writer.string
    }

    private func append(_ value: QueryValue, name: String, escaping: PercentEncoding, into writer: inout QueryWriter) {
        switch value {
        case .string(let text):
            writer.startPair(name: name, escaping: escaping)
            writer.appendValue(text, escaping: escaping)
        case .bool(let flag):
            writer.startPair(name: name, escaping: escaping)
            writer.appendValue(text(for: flag), escaping: escaping)
        case .object(let query):
            for parameter in query.parameters {
                append(parameter.value, name: "\(name)[\(parameter.name)]", escaping: escaping, into: &writer)
            }
        case .array(let elements):
            appendArray(elements, name: name, escaping: escaping, into: &writer)
        }
    }

    private func appendArray(
        _ elements: [QueryValue], name: String, escaping: PercentEncoding, into writer: inout QueryWriter
    ) {
        guard !elements.isEmpty else { return }
        let scalars = elements.compactMap(scalarText)
        guard scalars.count == elements.count else {
            for (index, element) in elements.enumerated() {
                append(element, name: "\(name)[\(index)]", escaping: escaping, into: &writer)
            }
            return
        }
        switch arrays {
        case .repeatedKey, .brackets:
            let key = arrays == .brackets ? name + "[]" : name
            for text in scalars {
                writer.startPair(name: key, escaping: escaping)
                writer.appendValue(text, escaping: escaping)
            }
        case .commaSeparated:
            writer.startPair(name: name, escaping: escaping)
            for (index, text) in scalars.enumerated() {
                writer.appendValue(text, escaping: escaping, afterComma: index > 0)
            }
        }
    }

    private func scalarText(_ value: QueryValue) -> String? {
        switch value {
        case .string(let text): text
        case .bool(let flag): text(for: flag)
        case .array, .object: nil
        }
    }

    private func text(for flag: Bool) -> String {
        switch bools {
        case .literal: flag ? "true" : "false"
        case .numeric: flag ? "1" : "0"
        }
    }
}
