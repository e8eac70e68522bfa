/// One value of a query item or form field: a string, a bool, a list or a nested object.
///
/// Literals work directly: `["q": "swift", "page": 2, "draft": false, "tags": ["a", "b"], "filter": ["lang": "en"]]`.
/// How lists and bools are written is decided by ``QueryEncoding``.
public enum QueryValue: Sendable, Hashable {
    /// A text value, written as is (after percent-encoding).
    case string(String)
    /// A boolean, written as `true`/`false` or `1`/`0` (see ``QueryEncoding/BoolEncoding``).
    case bool(Bool)
    /// A list, written as repeated keys, `key[]` or comma-joined (see ``QueryEncoding/ArrayEncoding``).
    case array([QueryValue])
    /// A nested object, written as `key[name]=value`, in order.
    case object(Query)

    /// A value from anything that prints itself losslessly, such as `Int`, `Double` or `UUID`.
    public init(_ value: some LosslessStringConvertible) { self = .string(value.description) }

    /// A value from an enum case or other raw-representable value (`.init(Method.getRecent)`).
    public init<T: RawRepresentable>(_ value: T) where T.RawValue: LosslessStringConvertible {
        self = .string(value.rawValue.description)
    }
}

extension QueryValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// A text value from a string literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension QueryValue: ExpressibleByIntegerLiteral {
    /// A number from an integer literal.
    public init(integerLiteral value: Int) { self = .string(String(value)) }
}

extension QueryValue: ExpressibleByFloatLiteral {
    /// A number from a floating-point literal.
    public init(floatLiteral value: Double) { self = .string(String(value)) }
}

extension QueryValue: ExpressibleByBooleanLiteral {
    /// A boolean from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension QueryValue: ExpressibleByArrayLiteral {
    /// A list from an array literal.
    public init(arrayLiteral elements: QueryValue...) { self = .array(elements) }
}

extension QueryValue: ExpressibleByDictionaryLiteral {
    /// A nested object from a dictionary literal; order is kept.
    public init(dictionaryLiteral elements: (String, QueryValue)...) {
        self = .object(Query(elements.map { QueryParameter(name: $0.0, value: $0.1) }))
    }
}
