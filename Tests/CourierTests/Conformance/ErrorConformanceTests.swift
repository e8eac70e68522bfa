import Courier
import CourierTesting
import Foundation
import Testing

/// Every way a real exchange can fail, against the demo server: each ends in a clear ``APIError``.
@Suite(.timeLimit(.minutes(1))) struct ErrorConformanceTests {
    static let apiKey = "TOP-SECRET-KEY-42"

    func client(
        _ transport: TransportUnderTest, ownPool: Bool = false,
        _ configure: (inout APIClient.Configuration) -> Void = { _ in }
    ) async throws -> APIClient {
        try await transport.demoClient(ownPool: ownPool) {
            $0.defaultQuery = ["key": Self.apiKey]
            $0.errorBody = MessageError.self
            configure(&$0)
        }
    }

    @Test(arguments: TransportUnderTest.all)
    func notFoundWithErrorBodyIsAnAPIErrorWithTheKeyRedacted(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<User>.get("/status/404", query: ["body": "json"]))
        }
        #expect(error?.kind == .apiError)
        #expect(error?.status == .notFound)
        #expect(error?.errorBody(as: MessageError.self)?.message == "Not Found")
        let text = error?.description ?? ""
        #expect(text.hasPrefix("GET http://127.0.0.1:"), "\(text)")
        #expect(text.contains("/status/404?body=json&key=<redacted> failed: 404 Not Found"), "\(text)")
        #expect(!text.contains(Self.apiKey), "the API key leaked: \(text)")
        #expect(error?.url?.contains(Self.apiKey) == false)
    }

    @Test(arguments: TransportUnderTest.all)
    func serverErrorWithHTMLIsAnUnacceptableStatusWithASnippet(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<User>.get("/status/500", query: ["body": "html"]))
        }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.status == .internalServerError)
        #expect(error?.bodySnippet?.contains("<h1>500 Internal Server Error</h1>") == true)
        #expect(error?.description.contains("body: \"<html>") == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func errorStatusWithoutABodyStillSaysWhatHappened(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/status/503")) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.bodySnippet == nil)
        #expect(error?.description.contains("503 Service Unavailable") == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func noContentAndEmptyOKAreVoid(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        try await client.send(APIRequest<Void>.get("/no-content"))
        try await client.send(APIRequest<Void>.get("/empty"))
        let response = try await client.response(APIRequest<Void>.get("/no-content"))
        #expect(response.status == .noContent)
    }

    @Test(arguments: TransportUnderTest.all)
    func nonJSONSuccessIsADecodingErrorWithTheBody(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<User>.get("/text")) }
        #expect(error?.kind == .decoding)
        #expect(error?.bodySnippet == "hello, world")
        #expect(try await client.send(APIRequest<String>.get("/text")) == "hello, world")
    }

    @Test(arguments: TransportUnderTest.all)
    func truncatedBodyIsAClearErrorNotAHang(transport: TransportUnderTest) async throws {
        let client = try await client(transport) { $0.timeout = .seconds(30) }
        let started = ContinuousClock.now
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Data>.get("/truncated")) }
        #expect(error?.kind == .transport)
        #expect(ContinuousClock.now - started < .seconds(15), "waited for the time limit instead of seeing the close")
        #expect(error?.description.contains("/truncated") == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func bodyOverTheLimitIsBodyTooLarge(transport: TransportUnderTest) async throws {
        let client = try await client(transport)  // 10 MiB limit by default
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Data>.get("/bytes/\(20 * 1024 * 1024)"))
        }
        #expect(error?.kind == .bodyTooLarge)
        #expect(error?.description.contains("declares 20971520 bytes, more than the 10 MiB limit") == true)
        let chunked = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Data>.get("/bytes/\(20 * 1024 * 1024)", query: ["chunked": 1]))
        }
        #expect(chunked?.kind == .bodyTooLarge)
        #expect(chunked?.description.contains("the response body passed the 10 MiB limit") == true)
        let small = try await client.send(APIRequest<Data>.get("/bytes/1000"))
        #expect(small.count == 1000)
        #expect(small.prefix(3) == Data([0, 1, 2]))
    }

    @Test(arguments: TransportUnderTest.all)
    func cancellingASlowRequestEndsPromptlyAsCancelled(transport: TransportUnderTest) async throws {
        let client = try await client(transport, ownPool: true)
        let slow = TaggedRequest.slow(milliseconds: 30_000)
        let task = Task { try await client.send(slow.request) }
        try await slow.waitForArrivals(at: client)
        let cancelled = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - cancelled < .seconds(10), "waited for the 30 s response")
    }

    @Test(arguments: TransportUnderTest.all)
    func clientAndEndpointTimeoutsAreTimedOut(transport: TransportUnderTest) async throws {
        let clock = ManualClock()
        let client = try await client(transport) {
            $0.timeout = .milliseconds(300)
            $0.clock = clock
        }
        let call = Task { try await client.send(APIRequest<Data>.get("/slow", query: ["ms": 20_000])) }
        await clock.waitForSleepers()  // the time limit's timer
        clock.advance(by: .milliseconds(300))
        let error = await #expect(throws: APIError.self) { try await call.value }
        #expect(error?.kind == .timedOut)

        struct Quick: Endpoint {
            typealias Response = Data
            var path: RoutePath { "/slow" }
            var query: Query { ["ms": 3_000] }
            var timeout: Duration? { .milliseconds(200) }
        }
        let unlimited = try await self.client(transport)
        let endpointError = await #expect(throws: APIError.self) { try await unlimited.send(Quick()) }
        #expect(endpointError?.kind == .timedOut)
        #expect(endpointError?.description.contains("timed out") == true)
    }

    @Test(arguments: TransportUnderTest.all)
    func completionHandlerOverRealHTTP(transport: TransportUnderTest) async throws {
        let client = try await client(transport)
        let result = await withCheckedContinuation { continuation in
            client.send(APIRequest<String>.get("/text")) { continuation.resume(returning: $0) }
        }
        #expect(try result.get() == "hello, world")
    }
}

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore

    /// The transport's own time limit is also `.timedOut`, not a transport failure.
    @Suite(.timeLimit(.minutes(1))) struct TransportTimeoutTests {
        @Test func httpClientTransportsOwnTimeoutIsTimedOut() async throws {
            let transport = HTTPClientTransport(client: .shared, timeout: .milliseconds(200))
            let client = APIClient(baseURL: try await TestServers.testServerURL(), transport: transport)
            let error = await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Data>.get("/slow", query: ["ms": 3_000]))
            }
            #expect(error?.kind == .timedOut)
        }
    }
#endif
