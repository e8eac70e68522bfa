import CourierDemoServer
import Hummingbird

/// `GET /drip?chunks=N&intervalMs=M&size=S[&tag=T]`: N chunks of S bytes (defaults 10, 100 ms, 10 bytes) with
/// an M millisecond pause between chunks, chunked (no `Content-Length`); for cancel-while-streaming tests. A
/// tagged request is counted once its first chunk is written (see ``ArrivalRoute``).
///
/// Byte `i` of the whole body is `UInt8(i % 251)`, as for `/bytes`. The pauses end early when the client
/// closes the connection, and the response carries `Connection: close` because that watch consumes the
/// connection's input.
enum DripRoute {
    static func add(to router: Router<DemoContext>) {
        router.get("/drip") { request, _ in
            let query = QueryItems(request)
            let chunks = try query.integer("chunks", default: 10, in: 0...100_000)
            let interval = try query.integer("intervalMs", default: 100, in: 0...60_000)
            let size = try query.integer("size", default: 10, in: 1...DeterministicBytes.maximumChunkSize)
            let tag = query["tag"]
            let body = ResponseBody { writer in
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    for index in 0..<chunks {
                        if index > 0 {
                            try await Task.sleep(for: .milliseconds(interval))
                        }
                        try await writer.write(DeterministicBytes.chunk(at: index * size, length: size))
                        if index == 0 { ArrivalRoute.note(tag) }
                    }
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream", .connection: "close"],
                body: body
            )
        }
    }
}
