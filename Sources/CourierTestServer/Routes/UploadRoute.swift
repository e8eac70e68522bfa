import CourierDemoServer
import Hummingbird

/// Streaming uploads: `POST|PUT /testing/upload` reads the body as it arrives, keeps none of it, and
/// answers `{"bytes": n, "sha256": "<64 hex digits>", "contentType": "…" | null, "chunked": Bool,
/// "contentLength": n | null}` (`chunked` is true when the body came without `Content-Length`, i.e. with
/// chunked transfer coding). Bodies up to 4 GiB; a larger one → `413 {"message": …}` and the connection
/// is closed. Hashing runs at about 300 MB/s in a release build, 30 MB/s in a debug build; `?digest=none`
/// skips it (`"sha256": null`) for tests that only count bytes.
enum UploadRoute {
    static let maximumSize = 4 * 1024 * 1024 * 1024

    struct Received: Encodable {
        let bytes: Int
        let sha256: String?
        let contentType: String?
        let chunked: Bool
        let contentLength: Int?

        private enum CodingKeys: String, CodingKey {
            case bytes, sha256, contentType, chunked, contentLength
        }

        // Written by hand so that absent headers are `null`, not absent keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(sha256, forKey: .sha256)
            try container.encode(contentType, forKey: .contentType)
            try container.encode(chunked, forKey: .chunked)
            try container.encode(contentLength, forKey: .contentLength)
        }
    }

    static func add(to router: Router<DemoContext>) {
        let handler: @Sendable (Request, DemoContext) async throws -> Response = { request, _ in
            let declared = request.headers[.contentLength].flatMap { Int($0) }
            if let declared, declared > maximumSize { return try tooLarge() }
            let hashing = request.uri.queryParameters.get("digest") != "none"
            var digest = SHA256Digest()
            var received = 0
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= maximumSize else { return try tooLarge() }
                if hashing { buffer.withUnsafeReadableBytes { digest.update($0) } }
            }
            return try DemoResponses.json(
                Received(
                    bytes: received, sha256: hashing ? digest.finalizeHex() : nil,
                    contentType: request.headers[.contentType],
                    chunked: declared == nil, contentLength: declared))
        }
        router.post("/testing/upload", use: handler)
        router.put("/testing/upload", use: handler)
    }

    /// `413`, closing the connection so that the client stops sending the rest of the body.
    static func tooLarge() throws -> Response {
        var response = try DemoResponses.json(
            DemoResponses.Message(message: "uploads are limited to \(maximumSize) bytes"), status: .contentTooLarge)
        response.headers[.connection] = "close"
        return response
    }
}
