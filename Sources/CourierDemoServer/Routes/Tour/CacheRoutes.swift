import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// Cacheable resources, for tests and the tour's cache step:
///
/// - `GET /testing/cache/{key}?maxAge=S&delay=MS`: `200 {"key": …, "version": v, "served": n}` with
///   `Cache-Control: max-age=S` (default 0: revalidate every use) and `ETag: "key-v"`; `304 Not Modified`
///   (no body) when `If-None-Match` names that ETag. `delay` holds the answer that many milliseconds (≤ 10 s),
///   for bursts that overlap. `n` counts the requests `key` has had, on arrival.
/// - `PUT /testing/cache/{key}`: a new version (its ETag changes) → `204`.
/// - `GET /testing/cache/{key}/stats` → `{"requests": n, "notModified": m}` without counting.
enum CacheRoutes {
    struct Resource: Encodable {
        let key: String
        let version: Int
        let served: Int
    }

    struct Stats: Encodable {
        let requests: Int
        let notModified: Int
    }

    /// Per key: requests, 304s sent, version.
    final class Counters: Sendable {
        let state = Mutex<[String: (requests: Int, notModified: Int, version: Int)]>([:])
        init() {}
    }

    static func add(to router: Router<DemoContext>, counters: Counters) {
        router.get("/testing/cache/{key}") { request, context in
            let key = context.parameters.get("key") ?? ""
            let query = QueryItems(request)
            let maxAge = try query.integer("maxAge", default: 0, in: 0...31_536_000)
            let delay = try query.integer("delay", default: 0, in: 0...10_000)
            // Counted on arrival, so a request whose client gives up during the delay still counts.
            let (entry, etag, notModified) = counters.state.withLock { state in
                var entry = state[key] ?? (0, 0, 1)
                let etag = "\"\(key)-\(entry.version)\""
                let notModified = request.headers[.ifNoneMatch] == etag
                entry.requests += 1
                if notModified { entry.notModified += 1 }
                state[key] = entry
                return (entry, etag, notModified)
            }
            if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) }
            var response =
                notModified
                ? Response(status: .notModified)
                : try DemoResponses.json(Resource(key: key, version: entry.version, served: entry.requests))
            response.headers[.eTag] = etag
            response.headers[.cacheControl] = "max-age=\(maxAge)"
            return response
        }
        router.put("/testing/cache/{key}") { request, context in
            for try await _ in request.body {}
            let key = context.parameters.get("key") ?? ""
            counters.state.withLock { state in
                var entry = state[key] ?? (0, 0, 1)
                entry.version += 1
                state[key] = entry
            }
            return Response(status: .noContent)
        }
        router.get("/testing/cache/{key}/stats") { _, context in
            let key = context.parameters.get("key") ?? ""
            let entry = counters.state.withLock { $0[key] ?? (0, 0, 1) }
            return try DemoResponses.json(Stats(requests: entry.requests, notModified: entry.notModified))
        }
    }
}
