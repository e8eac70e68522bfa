import CourierDemoServer
import Hummingbird

/// `GET /slow?ms=N[&tag=T]`: waits N milliseconds (default 2000, at most 60000), then answers
/// `{"sleptMilliseconds": N}`. A tagged request is counted on arrival (see ``ArrivalRoute``).
///
/// The wait is a task sleep, so other requests are served meanwhile, and it ends early when the client
/// closes the connection. The response carries `Connection: close` because the close watch consumes
/// the connection's input.
enum SlowRoute {
    static func add(to router: Router<DemoContext>) {
        router.get("/slow") { request, _ in
            let query = QueryItems(request)
            let milliseconds = try query.integer("ms", default: 2000, in: 0...60_000)
            ArrivalRoute.note(query["tag"])
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await Task.sleep(for: .milliseconds(milliseconds))
            }
            var response = try DemoResponses.json(Slept(sleptMilliseconds: milliseconds))
            response.headers[.connection] = "close"
            return response
        }
    }

    /// The body of a `/slow` response.
    struct Slept: Encodable {
        let sleptMilliseconds: Int
    }
}
