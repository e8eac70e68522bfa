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
            let length: Length = fields[.contentLength].flatMap { Int64($0) }.map { .known($0) } ?? .unknown
            return HTTPBody(chunks, length: length, iterationBehavior: .single)
        }
    }
}
