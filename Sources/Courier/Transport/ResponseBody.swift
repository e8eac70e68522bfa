import HTTPTypes
import OpenAPIRuntime

extension HTTPBody {
    /// The body a transport hands back for a response to `method`: none for `HEAD`, `CONNECT` and `TRACE`,
    /// else `chunks`, read once, with the length `Content-Length` declares (unknown without one).
    static func response<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, to method: HTTPRequest.Method, fields: HTTPFields
    ) -> HTTPBody? where Chunks.Element == ByteChunk {
        switch method {
        case .head, .connect, .trace: return nil
        default:
            // One pass over the fields (`value(of:)`), not `HTTPFields`' generic subscript.
            let length = fields.value(of: .contentLength).flatMap { Int64($0) }
            return HTTPBody(chunks, length: length.map { .known($0) } ?? .unknown, iterationBehavior: .single)
        }
    }
}
