import CourierDemoServer
import Hummingbird

/// Observes a client's concurrency and rate limits:
///
/// - `GET /testing/concurrency/{key}?delayMs=100` (0...60000) → waits, then `200 {"inFlight": n}`, n being
///   the requests to `key` in flight when this one arrived (itself included).
/// - `GET /testing/concurrency/{key}/stats` → `{"maxInFlight", "total", "inFlight", "arrivals": [ms]}`, the
///   arrivals in milliseconds after the key's first request (the first 10000 are kept).
/// - `POST /testing/concurrency/{key}/reset` forgets the key → `204`.
enum ConcurrencyRoutes {
    struct InFlight: Encodable {
        let inFlight: Int
    }

    static func add(to router: Router<DemoContext>, tracker: ConcurrencyTracker) {
        router.get("/testing/concurrency/{key}") { request, context in
            let delay = try QueryItems(request).integer("delayMs", default: 100, in: 0...60_000)
            let key = context.parameters.get("key") ?? ""
            let inFlight = tracker.enter(key)
            defer { tracker.leave(key) }
            try await Task.sleep(for: .milliseconds(delay))
            return try DemoResponses.json(InFlight(inFlight: inFlight))
        }
        router.get("/testing/concurrency/{key}/stats") { _, context in
            try DemoResponses.json(tracker.gauge(context.parameters.get("key") ?? ""))
        }
        router.post("/testing/concurrency/{key}/reset") { _, context in
            tracker.reset(context.parameters.get("key") ?? "")
            return Response(status: .noContent)
        }
    }
}
