import Foundation
package import Hummingbird

/// Builders for the server's JSON and text responses.
package enum DemoResponses {
    /// `{"message": "<text>"}`, the body of every error and of `/status/{code}?body=json`.
    package struct Message: Encodable {
        let message: String

        package init(message: String) { self.message = message }
    }

    /// A response whose body is `value` encoded as JSON (keys sorted, slashes unescaped), with
    /// `Content-Type: application/json`.
    package static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json(bytes: try encoder.encode(value), status: status)
    }

    /// A response whose body is `bytes`, already JSON, with `Content-Type: application/json`.
    package static func json(bytes: some Sequence<UInt8>, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// A response whose body is `text` encoded as UTF-8, with the given content type.
    package static func text(_ text: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text))
        )
    }
}

/// A request the server refuses with `400 Bad Request` and `{"message": "<message>"}`.
package struct BadRequest: HTTPResponseError {
    package let message: String

    package init(message: String) { self.message = message }

    package var status: HTTPResponse.Status { .badRequest }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        try DemoResponses.json(DemoResponses.Message(message: message), status: status)
    }
}
