public import Foundation

/// Encodes an `Encodable` value into a ``Query`` (or form fields), keeping the order of its keys.
///
/// ```swift
/// struct Search: Encodable {
///     let q: String
///     let page: Int
///     let tags: [String]
/// }
/// let query = try QueryEncoder().encode(Search(q: "swift", page: 2, tags: ["a", "b"]))
/// ```
/// Nested values become `key[inner]`; `nil` optionals are left out; dates follow ``dateEncoding``;
/// `Data` is base64. The top-level value must be keyed (a struct or a dictionary).
public struct QueryEncoder: Sendable {
    /// How dates are written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 with time zone, such as `2026-11-23T10:00:00Z` (the default).
        case iso8601
        /// Whole or fractional seconds since 1970.
        case secondsSince1970
        /// Milliseconds since 1970, as an integer.
        case millisecondsSince1970
        /// Your own format.
        case custom(@Sendable (Date) -> String)
    }

    /// How dates are written; `.iso8601` by default.
    public var dateEncoding: DateEncoding

    /// Creates an encoder.
    public init(dateEncoding: DateEncoding = .iso8601) { self.dateEncoding = dateEncoding }

    /// Encodes `value`, throwing `EncodingError` if it is not keyed or cannot be encoded.
    public func encode(_ value: some Encodable) throws -> Query {
        let root = QueryEncodingNode()
        try root.store(value, options: self, codingPath: [])
        guard case .keyed(let children) = root.content else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "A query must be encoded from a keyed value (a struct or dictionary).")
            )
        }
        return Query(children.compactMap { name, node in node.value.map { QueryParameter(name: name, value: $0) } })
    }

    func text(for date: Date) -> String {
        switch dateEncoding {
        case .iso8601: date.formatted(.iso8601)
        case .secondsSince1970: String(date.timeIntervalSince1970)
        case .millisecondsSince1970: String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .custom(let format): format(date)
        }
    }
}

/// The value tree built while encoding. A class so that nested containers can fill in their parent.
final class QueryEncodingNode {
    enum Content {
        case unset
        case scalar(QueryValue)
        case keyed([(String, QueryEncodingNode)])
        case unkeyed([QueryEncodingNode])
    }

    var content = Content.unset

    var value: QueryValue? {
        switch content {
        case .unset: nil
        case .scalar(let value): value
        case .unkeyed(let nodes): .array(nodes.compactMap(\.value))
        case .keyed(let children):
            .object(
                Query(children.compactMap { name, node in node.value.map { QueryParameter(name: name, value: $0) } }))
        }
    }

    func store(_ value: some Encodable, options: QueryEncoder, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: content = .scalar(.string(options.text(for: date)))
        case let data as Data: content = .scalar(.string(data.base64EncodedString()))
        case let url as URL: content = .scalar(.string(url.absoluteString))
        case let decimal as Decimal: content = .scalar(.string(decimal.description))
        default: try value.encode(to: QueryNodeEncoder(node: self, options: options, codingPath: codingPath))
        }
    }

    func child(forKey key: String) -> QueryEncodingNode {
        let node = QueryEncodingNode()
        if case .keyed(var children) = content {
            content = .unset  // keeps the array uniquely referenced while appending
            children.append((key, node))
            content = .keyed(children)
        } else {
            content = .keyed([(key, node)])
        }
        return node
    }

    func appendedChild() -> QueryEncodingNode {
        let node = QueryEncodingNode()
        if case .unkeyed(var nodes) = content {
            content = .unset
            nodes.append(node)
            content = .unkeyed(nodes)
        } else {
            content = .unkeyed([node])
        }
        return node
    }

    var count: Int {
        if case .unkeyed(let nodes) = content { return nodes.count }
        return 0
    }
}

struct QueryNodeEncoder: Encoder {
    let node: QueryEncodingNode
    let options: QueryEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([]) }
        return KeyedEncodingContainer(QueryKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return QueryUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { QuerySingleValueContainer(encoder: self) }

    func nested(_ node: QueryEncodingNode, key: any CodingKey) -> QueryNodeEncoder {
        QueryNodeEncoder(node: node, options: options, codingPath: codingPath + [key])
    }
}

struct QueryKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: QueryNodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.node.child(forKey: key.stringValue).store(
            value, options: encoder.options, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.nested(encoder.node.child(forKey: "super"), key: QueryIndexKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key)
    }
}

struct QueryUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: QueryNodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.count }

    private func nextKey() -> QueryIndexKey { QueryIndexKey(intValue: count) }

    mutating func encodeNil() throws {}

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = nextKey()
        try encoder.node.appendedChild().store(value, options: encoder.options, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let key = nextKey()
        return encoder.nested(encoder.node.appendedChild(), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey()
        return encoder.nested(encoder.node.appendedChild(), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey()
        return encoder.nested(encoder.node.appendedChild(), key: key)
    }
}

struct QuerySingleValueContainer: SingleValueEncodingContainer {
    let encoder: QueryNodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.content = .unset }
    mutating func encode(_ value: Bool) throws { encoder.node.content = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { encoder.node.content = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { try encodeNumber(value, isFinite: value.isFinite) }
    mutating func encode(_ value: Float) throws { try encodeNumber(value, isFinite: value.isFinite) }
    mutating func encode(_ value: Int) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: Int8) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: Int16) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: Int32) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: Int64) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: UInt) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.node.content = .scalar(.init(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.node.content = .scalar(.init(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.node.store(value, options: encoder.options, codingPath: codingPath)
    }

    private func encodeNumber(_ value: some LosslessStringConvertible, isFinite: Bool) throws {
        guard isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) cannot be written in a query."))
        }
        encoder.node.content = .scalar(.init(value))
    }
}

struct QueryIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}
