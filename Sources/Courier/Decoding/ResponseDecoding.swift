import Foundation

/// The decoding rules shared by endpoints, one-off requests and routes.
enum ResponseDecoding {
    /// Raw bytes for `Data`, UTF-8 text for `String`, otherwise the context's envelope (if any) and decoder.
    static func decode<T: Decodable>(_ type: T.Type, from body: Data, context: ResponseContext) throws -> T {
        if T.self == Data.self, let data = body as? T { return data }
        if T.self == String.self {
            guard let text = String(data: body, encoding: .utf8), let value = text as? T else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "The body is not valid UTF-8."))
            }
            return value
        }
        if body.isEmpty {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "The body is empty, but a \(T.self) was expected."))
        }
        if let envelope = context.envelope { return try envelope.unwrap(T.self, from: body, using: context.decoder) }
        return try context.decoder.decode(T.self, from: body)
    }
}
