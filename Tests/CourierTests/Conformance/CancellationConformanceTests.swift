import Courier
import Foundation
import Testing

/// Cancelling at every stage of a real exchange ends with `.cancelled`, promptly, and leaves the client
/// (and its connection pool) able to send the next request.
@Suite(.timeLimit(.minutes(1))) struct CancellationConformanceTests {
    /// Is cancelled while its decoder runs. (Cancelling from inside is deterministic; sleeping in the
    /// decoder would block one of the machine's few cooperative threads and race the canceller.)
    struct CancelledWhileDecoding: Endpoint {
        typealias Response = String
        var path: RoutePath { "/text" }
        func decode(_ body: Data, context: ResponseContext) throws -> String {
            withUnsafeCurrentTask { $0?.cancel() }
            return String(decoding: body, as: UTF8.self)
        }
    }

    /// Starts `request`, cancels it once `ready` holds, and checks it ends as `.cancelled` within 10 s (the
    /// requests cancelled here take 30 s; the margin is for a loaded machine running every suite at once, where
    /// a CI run saw timers fire 3–4 s late).
    func expectCancelled<E: Endpoint>(
        _ request: E, on client: APIClient, once what: String, _ ready: @escaping () async throws -> Bool
    ) async throws {
        let task = Task { try await client.send(request) }
        try await eventually(what, ready)
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled, "ended as \(String(describing: error))")
        #expect(ContinuousClock.now - cancelledAt < .seconds(10), "cancellation took too long")
    }

    /// The client still works after a cancellation.
    func expectFollowUpSucceeds(on client: APIClient) async throws {
        #expect(try await client.send(APIRequest<String>.get("/text")) == "hello, world")
    }

    @Test(arguments: TransportUnderTest.all)
    func beforeSending(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.send(APIRequest<String>.get("/text"))
        }
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(error?.phase == .building)
        try await expectFollowUpSucceeds(on: client)
    }

    @Test(arguments: TransportUnderTest.all)
    func whileWaitingForTheHead(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient(ownPool: true)
        let slow = TaggedRequest.slow(milliseconds: 30_000)
        try await expectCancelled(slow.request, on: client, once: "the request at the server") {
            try await slow.arrivals(at: client) == 1
        }
        try await expectFollowUpSucceeds(on: client)
    }

    @Test(arguments: TransportUnderTest.all)
    func whileTheBodyStreams(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient(ownPool: true)
        let drip = TaggedRequest.drip(chunks: 100, intervalMs: 100, size: 16)
        try await expectCancelled(drip.request, on: client, once: "the body streaming") {
            try await drip.arrivals(at: client) == 1
        }
        try await expectFollowUpSucceeds(on: client)
    }

    @Test(arguments: TransportUnderTest.all)
    func whileDecoding(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let task = Task { try await client.send(CancelledWhileDecoding()) }
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(error?.phase == .decoding)
        try await expectFollowUpSucceeds(on: client)
    }

    @Test(arguments: TransportUnderTest.all)
    func manyCancelledRequestsLeaveThePoolUsable(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient(ownPool: true)
        let slow = TaggedRequest.slow(milliseconds: 10_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask { _ = try? await client.send(slow.request) }
            }
            // Some are at the server, the others queued for a connection (URLSession opens only a few).
            try await slow.waitForArrivals(at: client)
            group.cancelAll()
        }
        for _ in 0..<5 { try await expectFollowUpSucceeds(on: client) }
    }
}
