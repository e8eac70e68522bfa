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

extension QueryEncoding {
    /// Writes `query` as percent-encoded `name=value` pairs joined by `&`, appending to `bytes`
    /// (which holds only pairs written by this method: a non-empty buffer gets a `&` first).
    ///
    /// Nested objects become `name[key]`; lists of lists or objects are indexed (`name[0][key]`)
    /// whatever ``arrays`` says, because no other form round-trips.
    func serialize(_ query: Query, escaping: PercentEncoding, into bytes: inout [UInt8]) {
        for parameter in query.parameters {
            append(parameter.value, name: parameter.name, escaping: escaping, into: &bytes)
        }
    }

    /// The percent-encoded form of `query`.
    func serialize(_ query: Query, escaping: PercentEncoding) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(query.parameters.count * 16)
        serialize(query, escaping: escaping, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func append(_ value: QueryValue, name: String, escaping: PercentEncoding, into bytes: inout [UInt8]) {
        switch value {
        case .string(let text):
            appendPair(name: name, value: text, escaping: escaping, into: &bytes)
        case .bool(let flag):
            appendPair(name: name, value: text(for: flag), escaping: escaping, into: &bytes)
        case .object(let query):
            for parameter in query.parameters {
                append(parameter.value, name: "\(name)[\(parameter.name)]", escaping: escaping, into: &bytes)
            }
        case .array(let elements):
            appendArray(elements, name: name, escaping: escaping, into: &bytes)
        }
    }

    private func appendArray(
        _ elements: [QueryValue], name: String, escaping: PercentEncoding, into bytes: inout [UInt8]
    ) {
        guard !elements.isEmpty else { return }
        let scalars = elements.compactMap(scalarText)
        guard scalars.count == elements.count else {
            for (index, element) in elements.enumerated() {
                append(element, name: "\(name)[\(index)]", escaping: escaping, into: &bytes)
            }
            return
        }
        switch arrays {
        case .repeatedKey:
            for text in scalars { appendPair(name: name, value: text, escaping: escaping, into: &bytes) }
        case .brackets:
            for text in scalars { appendPair(name: name + "[]", value: text, escaping: escaping, into: &bytes) }
        case .commaSeparated:
            startPair(name: name, escaping: escaping, into: &bytes)
            for (index, text) in scalars.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                escaping.append(text, to: &bytes)
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

    private func startPair(name: String, escaping: PercentEncoding, into bytes: inout [UInt8]) {
        if !bytes.isEmpty { bytes.append(UInt8(ascii: "&")) }
        escaping.append(name, to: &bytes)
        bytes.append(UInt8(ascii: "="))
    }

    private func appendPair(name: String, value: String, escaping: PercentEncoding, into bytes: inout [UInt8]) {
        startPair(name: name, escaping: escaping, into: &bytes)
        escaping.append(value, to: &bytes)
    }
}
