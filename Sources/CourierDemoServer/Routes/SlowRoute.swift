import Hummingbird
import Synchronization

/// `GET /slow?ms=N[&tag=T]`: waits N milliseconds (default 2000, at most 60000), then answers
/// `{"sleptMilliseconds": N}`. `GET /slow/arrivals?tag=T` answers `{"arrived": n}`: how many `/slow` requests
/// with that tag have arrived, so that a test can act once its request is at the server instead of guessing
/// how long that takes.
///
/// The wait is a task sleep, so other requests are served meanwhile, and it ends early when the client
/// closes the connection. The response carries `Connection: close` because the close watch consumes
/// the connection's input.
enum SlowRoute {
    /// Arrivals by tag.
    private static let arrivals = Mutex<[String: Int]>([:])

    static func add(to router: Router<DemoContext>) {
        router.get("/slow") { request, _ in
            let query = QueryItems(request)
            let milliseconds = try query.integer("ms", default: 2000, in: 0...60_000)
            if let tag = query["tag"] { arrivals.withLock { $0[tag, default: 0] += 1 } }
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await Task.sleep(for: .milliseconds(milliseconds))
            }
            var response = try DemoResponses.json(Slept(sleptMilliseconds: milliseconds))
            response.headers[.connection] = "close"
            return response
        }
        router.get("/slow/arrivals") { request, _ in
            let tag = QueryItems(request)["tag"] ?? ""
            return try DemoResponses.json(Arrivals(arrived: arrivals.withLock { $0[tag] ?? 0 }))
        }
    }

    /// The body of a `/slow` response.
    struct Slept: Encodable {
        let sleptMilliseconds: Int
    }

    /// The body of a `/slow/arrivals` response.
    struct Arrivals: Encodable {
        let arrived: Int
    }
}
