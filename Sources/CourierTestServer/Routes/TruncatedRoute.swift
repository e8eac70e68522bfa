import CourierDemoServer
import Hummingbird

/// `GET /truncated`: declares `Content-Length: 1000`, sends 100 bytes, then closes the connection,
/// so a client sees a body cut short instead of waiting for the rest.
enum TruncatedRoute {
    static let declaredLength = 1000
    static let sentLength = 100

    static func add(to router: Router<DemoContext>) {
        router.get("/truncated") { _, _ in
            let body = ResponseBody { writer in
                try await writer.write(DeterministicBytes.chunk(at: 0, length: sentLength))
                // Throwing from the body writer makes Hummingbird close the connection mid-body.
                throw DeterministicBytes.CutShort()
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .contentLength: String(declaredLength)],
                body: body
            )
        }
    }
}
