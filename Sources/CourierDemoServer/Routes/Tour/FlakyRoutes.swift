import Foundation
import Hummingbird

/// A resource that fails before it works, for retry tests:
///
/// - `GET|POST|PUT /testing/flaky/{key}?failures=N&status=503&retryAfter=S&retryAfterDate=0`: the first N
///   requests to `key` (default 1, per server instance) get `status` (default 503, 400...599) with
///   `{"message": "try again"}` and, when `retryAfter` is given, `Retry-After: S`, or with `retryAfterDate=1`
///   an IMF-fixdate at least S seconds ahead; later requests get `200 {"attempts": k}`, k being the
///   attempt number. A request body is read and discarded.
/// - `GET /testing/flaky/{key}/attempts` → `{"attempts": k}` without counting.
/// - `POST /testing/flaky/{key}/reset` forgets the key → `204`.
enum FlakyRoutes {
    struct Attempts: Encodable {
        let attempts: Int
    }

    static func add(to router: Router<DemoContext>, counters: FlakyCounters) {
        let handler: @Sendable (Request, DemoContext) async throws -> Response = { request, context in
            let query = QueryItems(request)
            let failures = try query.integer("failures", default: 1, in: 0...1_000_000)
            let code = try query.integer("status", default: 503, in: 400...599)
            let retryAfter = try query.optionalInteger("retryAfter", in: 0...86_400)
            let useDate = ["1", "true"].contains(query["retryAfterDate"])
            for try await _ in request.body {}
            let attempt = counters.attempt(context.parameters.get("key") ?? "")
            guard attempt > failures else {
                let status = ReasonPhrase.status(code)
                var response = try DemoResponses.json(DemoResponses.Message(message: "try again"), status: status)
                if let retryAfter {
                    response.headers[.retryAfter] = useDate ? httpDate(secondsAhead: retryAfter) : String(retryAfter)
                }
                return response
            }
            return try DemoResponses.json(Attempts(attempts: attempt))
        }
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/testing/flaky/{key}", method: method, use: handler)
        }
        router.get("/testing/flaky/{key}/attempts") { _, context in
            try DemoResponses.json(Attempts(attempts: counters.attempts(context.parameters.get("key") ?? "")))
        }
        router.post("/testing/flaky/{key}/reset") { _, context in
            counters.reset(context.parameters.get("key") ?? "")
            return Response(status: .noContent)
        }
    }

    /// An IMF-fixdate at least `seconds` from now (the current second rounded up, so a client that
    /// subtracts its clock never waits less than asked).
    static func httpDate(secondsAhead seconds: Int) -> String {
        let now = Date().timeIntervalSince1970
        return CivilTime(epochSeconds: Int(now.rounded(.up)) + seconds).imfFixdate
    }
}
