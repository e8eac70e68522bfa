import Courier
import Foundation
import HTTPTypes
import Testing

/// The HTTP cache end to end, on every transport, against the demo server's cacheable resources
/// (`/testing/cache/{key}`): what is served from the cache never reaches the server, what is revalidated
/// reaches it as a conditional request answered `304`, and `APIResponse.cacheStatus` says which.
@Suite(.timeLimit(.minutes(1)))
struct HTTPCacheEndToEndTests {
    func stats(_ key: String, _ client: APIClient) async throws -> CacheStats {
        try await client.send(APIRequest<CacheStats>.get("/testing/cache/\(key)/stats").cacheMode(.bypass))
    }

    func client(_ transport: TransportUnderTest, cache: HTTPCache = HTTPCache()) async throws -> APIClient {
        try await transport.demoClient { $0.cache = cache }
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func aFreshResponseIsServedWithoutARequest(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let key = "fresh-\(transport)-\(UUID().uuidString.prefix(8))"
        let first = try await client.response(
            APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["maxAge": 60]))
        let second = try await client.response(
            APIRequest<CachedResource>.get("/testing/cache/\(key)", query: ["maxAge": 60]))
        #expect(first.cacheStatus == .network)
        #expect(second.cacheStatus == .cached)
        #expect(second.value == first.value)
        #expect(second.headerFields[.age] != nil)
        #expect(try await stats(key, client) == CacheStats(requests: 1, notModified: 0))
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func aStaleResponseIsRevalidatedWithItsETag(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let key = "stale-\(transport)-\(UUID().uuidString.prefix(8))"
        let first = try await client.response(APIRequest<CachedResource>.get("/testing/cache/\(key)"))
        let second = try await client.response(APIRequest<CachedResource>.get("/testing/cache/\(key)"))
        #expect(first.cacheStatus == .network)
        #expect(second.cacheStatus == .revalidated)
        #expect(second.status == .ok)
        #expect(second.value == first.value)  // the stored body, served = 1
        #expect(try await stats(key, client) == CacheStats(requests: 2, notModified: 1))
        // A new version: the validator no longer matches, so the server sends it in full.
        _ = try await client.send(APIRequest<Void>.put("/testing/cache/\(key)"))
        let third = try await client.response(APIRequest<CachedResource>.get("/testing/cache/\(key)"))
        #expect(third.cacheStatus == .network)
        #expect(third.value.version == 2)
    }

    @Test func aResponseToOneUsersCredentialsIsNeverServedToAnother() async throws {
        let client = try await client(.httpClient)
        let key = "credentials-\(UUID().uuidString.prefix(8))"
        func get(_ token: String) async throws -> APIResponse<CachedResource> {
            try await client.response(
                APIRequest<CachedResource>.get(
                    "/testing/cache/\(key)", query: ["maxAge": 60], headers: [.authorization: "Bearer \(token)"]))
        }
        #expect(try await get("alice").cacheStatus == .network)
        #expect(try await get("alice").cacheStatus == .cached)
        #expect(try await get("bob").cacheStatus == .network)
        #expect(try await get("bob").cacheStatus == .cached)
        #expect(try await stats(key, client) == CacheStats(requests: 2, notModified: 0))
    }

    @Test(arguments: TransportUnderTest.allWithTLS)
    func anUnsafeRequestInvalidatesWhatIsStoredForItsURL(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let key = "invalidate-\(transport)-\(UUID().uuidString.prefix(8))"
        let path: RoutePath = "/testing/cache/\(key)"
        _ = try await client.send(APIRequest<CachedResource>.get(path))
        _ = try await client.send(APIRequest<Void>.put(path))
        // Nothing stored any more: no conditional request, a full answer.
        let after = try await client.response(APIRequest<CachedResource>.get(path))
        #expect(after.cacheStatus == .network)
        #expect(try await stats(key, client) == CacheStats(requests: 2, notModified: 0))
    }

    @Test func cacheModesChooseBetweenTheStoreAndTheNetwork() async throws {
        let client = try await client(.httpClient)
        let key = "modes-\(UUID().uuidString.prefix(8))"
        let path: RoutePath = "/testing/cache/\(key)"
        let missing = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<CachedResource>.get(path).cacheMode(.onlyIfCached))
        }
        #expect(missing?.status == .gatewayTimeout)
        let bypassed = try await client.response(APIRequest<CachedResource>.get(path).cacheMode(.bypass))
        #expect(bypassed.cacheStatus == .network)
        let loaded = try await client.response(APIRequest<CachedResource>.get(path).cacheMode(.returnCacheElseLoad))
        #expect(loaded.cacheStatus == .network)  // nothing stored by the bypass
        let stored = try await client.response(APIRequest<CachedResource>.get(path).cacheMode(.returnCacheElseLoad))
        #expect(stored.cacheStatus == .cached)  // stale, but this mode takes it
        let reloaded = try await client.response(APIRequest<CachedResource>.get(path).cacheMode(.reload))
        #expect(reloaded.cacheStatus == .network)
        #expect(reloaded.value.served == 3)
        #expect(try await stats(key, client) == CacheStats(requests: 3, notModified: 0))
    }
}

/// The stores behind the cache.
@Suite struct HTTPCacheStoreTests {
    func entry(_ url: String, bytes: Int, credentialed: Bool = false) -> CachedResponse {
        CachedResponse(
            url: url, response: HTTPResponse(status: .ok, headerFields: [.cacheControl: "max-age=60"]),
            body: Data(repeating: 7, count: bytes), varyingFields: [:], requestTime: Date(), responseTime: Date(),
            isCredentialed: credentialed)
    }

    @Test func theMemoryStoreDropsTheLeastRecentlyUsedPastItsBound() async throws {
        let store = MemoryCacheStore(maxBytes: 3000)
        try await store.setResponses([entry("a", bytes: 1000)], for: "a")
        try await store.setResponses([entry("b", bytes: 1000)], for: "b")
        _ = try await store.responses(for: "a")  // a is now the most recent
        try await store.setResponses([entry("c", bytes: 1000)], for: "c")
        #expect(try await store.responses(for: "b").isEmpty)
        #expect(try await store.responses(for: "a").count == 1)
        #expect(try await store.responses(for: "c").count == 1)
        #expect(store.byteCount <= 3000)
    }

    @Test func theDiskStoreKeepsResponsesAcrossInstancesButNoCredentialedOnesUnlessTold() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "courier-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try DiskCacheStore(directory: directory)
        try await store.setResponses([entry("http://x/a", bytes: 10)], for: "http://x/a")
        try await store.setResponses([entry("http://x/b", bytes: 10, credentialed: true)], for: "http://x/b")
        let reopened = try DiskCacheStore(directory: directory)
        let kept = try await reopened.responses(for: "http://x/a")
        #expect(kept.map(\.body) == [Data(repeating: 7, count: 10)])
        #expect(kept.first?.response.headerFields[.cacheControl] == "max-age=60")
        #expect(try await reopened.responses(for: "http://x/b").isEmpty)
        let trusting = try DiskCacheStore(directory: directory, storesCredentialedResponses: true)
        try await trusting.setResponses([entry("http://x/b", bytes: 10, credentialed: true)], for: "http://x/b")
        #expect(try await trusting.responses(for: "http://x/b").count == 1)
        try await trusting.removeAll()
        #expect(try await reopened.responses(for: "http://x/a").isEmpty)
    }
}
