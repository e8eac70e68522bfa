public import Foundation

/// Turns an `Encodable` value into request-body bytes. `JSONEncoder` is one; write your own for XML,
/// MessagePack or any other format.
public protocol RequestBodyEncoder: Sendable {
    /// The `Content-Type` of what ``encode(_:)`` produces, such as `application/json`.
    var contentType: String { get }
    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
}

/// Turns response-body bytes into a `Decodable` value. `JSONDecoder` is one; write your own for other
/// formats and set it on the client or on an endpoint.
public protocol ResponseBodyDecoder: Sendable {
    /// Decodes a `T` from `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONEncoder: RequestBodyEncoder {
    /// `application/json`.
    public var contentType: String { "application/json" }
}

extension JSONDecoder: ResponseBodyDecoder {}
