import Courier
import Foundation
import HTTPTypes

extension Tour {
    struct CachedResource: Decodable, Sendable {
        let key: String
        let version: Int
        let served: Int
    }

    struct CacheStats: Decodable, Sendable {
        let requests: Int
        let notModified: Int
    }

    /// The HTTP cache revalidating with a `304`, and a burst of identical requests sharing one exchange.
    func httpState() async {
        output.section("HTTP cache and coalescing")
        let client = APIClient(baseURL: baseURL, middlewares: middlewares) {
            $0.cache = HTTPCache()
            $0.coalescesRequests = true
        }
        let key = "tour-\(UUID().uuidString.prefix(8))"
        let resource = APIRequest<CachedResource>.get("/testing/cache/\(key)")
        await output.step("GET twice; the second is revalidated") {
            let first = try await client.response(resource)
            let second = try await client.response(resource)
            guard second.cacheStatus == .revalidated else {
                throw TourFailure("the second response came from \(second.cacheStatus)")
            }
            return "\(first.status.code) from the \(first.cacheStatus), then \(second.status.code) from the cache "
                + "after the server's 304 (ETag \(second.headerFields[.eTag] ?? "?"))"
        }
        let burst = "tour-burst-\(UUID().uuidString.prefix(8))"
        await output.step("50 identical GETs at once, coalesced") {
            let values = try await withThrowingTaskGroup(of: CachedResource.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        try await client.send(
                            APIRequest<CachedResource>.get("/testing/cache/\(burst)", query: ["delay": 200]))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stats = try await client.send(
                APIRequest<CacheStats>.get("/testing/cache/\(burst)/stats").coalesced(false).cacheMode(.bypass))
            return
                "\(values.count) answers, \(stats.requests) request\(stats.requests == 1 ? "" : "s") reached the server"
        }
    }
}
