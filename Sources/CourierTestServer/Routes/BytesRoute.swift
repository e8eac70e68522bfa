import CourierDemoServer
import Hummingbird

/// `GET /bytes/{n}`: n bytes (0 ≤ n ≤ 2 GiB) where byte `i` is `UInt8(i % 251)`, as
/// `application/octet-stream` with `Content-Length: n`; `?chunked=1` sends the same bytes with chunked
/// transfer encoding instead. The body is streamed in 64 KiB chunks, never held in memory whole.
enum BytesRoute {
    static let maximumCount = 2 * 1024 * 1024 * 1024

    static func add(to router: Router<DemoContext>) {
        router.get("/bytes/{n}") { request, context in
            guard let text = context.parameters.get("n"), let count = Int(text), (0...maximumCount).contains(count)
            else {
                throw BadRequest(message: "n must be an integer in 0...\(maximumCount)")
            }
            let chunked = ["1", "true"].contains(QueryItems(request)["chunked"])
            let body = ResponseBody(contentLength: chunked ? nil : count) { writer in
                try await DeterministicBytes.write(count: count, to: &writer)
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }
}
