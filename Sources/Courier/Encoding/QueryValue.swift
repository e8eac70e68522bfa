public import Foundation

/// One value of a query item or form field: a string, a bool, a list or a nested object.
///
/// A ``Query`` literal takes variables and literals alike (see ``QueryValueConvertible``):
/// `["q": q, "page": 2, "draft": false, "tags": ["a", "b"], "filter": QueryValue.object(["lang": "en"])]`.
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

/// A value that can stand in a ``Query`` literal or be appended to one: `["q": q, "page": page]` with a
/// `String` and an `Int` variable.
///
/// Strings, integers, floating-point numbers, `Bool`, `UUID`, `URL`, arrays of these, ``QueryValue`` and
/// ``Query`` conform. So does a `[String: Value]` dictionary, as a nested object with its keys sorted (a
/// dictionary has no order; write a ``Query`` to choose one). Make an enum conform with an empty extension,
/// `extension Sort: QueryValueConvertible {}`, to send its raw value.
public protocol QueryValueConvertible: Sendable {
    /// The value as a query value.
    var queryValue: QueryValue { get }
}

extension QueryValueConvertible where Self: RawRepresentable, RawValue: QueryValueConvertible {
    /// The raw value.
    public var queryValue: QueryValue { rawValue.queryValue }
}

extension QueryValueConvertible where Self: LosslessStringConvertible {
    /// The value's text.
    public var queryValue: QueryValue { QueryValue.string(description) }
}

extension QueryValue: QueryValueConvertible {
    /// Itself.
    public var queryValue: QueryValue { self }
}

extension Query: QueryValueConvertible {
    /// A nested object, in order.
    public var queryValue: QueryValue { QueryValue.object(self) }
}

extension Bool: QueryValueConvertible {
    /// A boolean, written as ``QueryEncoding/BoolEncoding`` says.
    public var queryValue: QueryValue { QueryValue.bool(self) }
}

extension String: QueryValueConvertible {}
extension Substring: QueryValueConvertible {}
extension Int: QueryValueConvertible {}
extension Int8: QueryValueConvertible {}
extension Int16: QueryValueConvertible {}
extension Int32: QueryValueConvertible {}
extension Int64: QueryValueConvertible {}
extension UInt: QueryValueConvertible {}
extension UInt8: QueryValueConvertible {}
extension UInt16: QueryValueConvertible {}
extension UInt32: QueryValueConvertible {}
extension UInt64: QueryValueConvertible {}
extension Double: QueryValueConvertible {}
extension Float: QueryValueConvertible {}

extension UUID: QueryValueConvertible {
    /// The UUID's text, upper-case as `uuidString` writes it.
    public var queryValue: QueryValue { QueryValue.string(uuidString) }
}

extension URL: QueryValueConvertible {
    /// The absolute URL's text (percent-encoded again as a query value).
    public var queryValue: QueryValue { QueryValue.string(absoluteString) }
}

extension Array: QueryValueConvertible where Element: QueryValueConvertible {
    /// A list of the elements' values.
    public var queryValue: QueryValue { QueryValue.array(map(\.queryValue)) }
}

extension Dictionary: QueryValueConvertible where Key == String, Value: QueryValueConvertible {
    /// A nested object, keys sorted so that the same dictionary always gives the same URL.
    public var queryValue: QueryValue {
        QueryValue.object(
            Query(sorted { $0.key < $1.key }.map { QueryParameter(name: $0.key, value: $0.value.queryValue) }))
    }
}
