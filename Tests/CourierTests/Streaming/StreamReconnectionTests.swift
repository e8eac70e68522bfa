import Courier
import Foundation
import Testing

/// An event stream reconnects only after the network failed: a failure on the client's side ends it for good
/// under any policy, because another connection would fail the same way. Each case counts the connections
/// the server saw, with a policy that would reconnect at once, three times.
@Suite(.timeLimit(.minutes(1)))
struct StreamReconnectionTests {
    /// Reconnects at once, up to three times: a stream that wrongly reconnects shows a second connection.
    static let eager = ReconnectPolicy(maxReconnects: 3, delay: .zero, jitter: false)

    /// Waits for the server to see the stream `key` closed, and expects it to have been opened once.
    static func expectClosedAfterOneConnection(_ key: String, _ client: APIClient) async throws {
        try await eventually("the server seeing the connection close", within: .seconds(15)) {
            try await EventStreamTests.stats(key, client).closed == 1
        }
        #expect(try await EventStreamTests.stats(key, client).opened == 1)
    }

    static func key(_ name: String, _ transport: TransportUnderTest) -> String {
        "\(name)-\(transport)-\(UUID().uuidString.prefix(8))"
    }

    @Test(arguments: TransportUnderTest.all)
    func aLinePastTheLimitEndsTheStreamOnTheFirstConnection(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient { $0.maxBodySize = 4096 }
        let key = Self.key("long-line", transport)
        // Each event's data line carries 8 KiB of padding, twice the client's limit.
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 5, "pad": 8192])
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.events(request, reconnecting: Self.eager) {}
        }
        #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
        #expect(try await EventStreamTests.stats(key, client).opened == 1)
    }

    @Test(arguments: TransportUnderTest.all)
    func aCancelledStreamIsNotReconnected(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = Self.key("cancelled", transport)
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 1000, "intervalMs": 20])
        let task = Task {
            var received = 0
            for try await _ in client.events(request, reconnecting: Self.eager) {
                received += 1
                if received == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
        }
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled, "\(String(describing: error))")
        try await Self.expectClosedAfterOneConnection(key, client)
    }

    /// An event the caller fails to decode ends the loop, and with it the stream: its iterator goes away, and
    /// nothing reconnects.
    @Test(arguments: TransportUnderTest.all)
    func anEventThatFailsToDecodeEndsTheStream(transport: TransportUnderTest) async throws {
        struct Wrong: Decodable { let missing: String }
        let client = try await transport.demoClient()
        let key = Self.key("undecodable", transport)
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 1000, "intervalMs": 20])
        await #expect(throws: DecodingError.self) {
            for try await event in client.events(request, reconnecting: Self.eager) {
                _ = try event.decode(Wrong.self)
            }
        }
        try await Self.expectClosedAfterOneConnection(key, client)
    }

    @Test(arguments: TransportUnderTest.all)
    func aDroppedConnectionIsReconnectedOnce(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let key = Self.key("dropped", transport)
        let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 6, "dropAfter": 3])
        var received = 0
        for try await _ in client.events(request, reconnecting: Self.eager) { received += 1 }
        #expect(received == 6)
        #expect(try await EventStreamTests.stats(key, client).opened == 2)
    }

    #if canImport(FoundationNetworking)
        /// FoundationNetworking can't pause a transfer: a reader that falls more than the transport's read-ahead
        /// behind ends the stream with `.bodyTooLarge` (what ``ReadAheadExceeded`` says), once, not five times
        /// after downloading up to the limit again each time.
        @Test func aURLSessionReaderFarBehindEndsTheStreamOnTheFirstConnection() async throws {
            let client = APIClient(
                baseURL: try await TestServers.testServerURL(),
                transport: StreamingURLSessionTransport(readAheadLimit: 1024 * 1024))
            let key = Self.key("read-ahead", TransportUnderTest.urlSession)
            // 64 KiB events, as fast as the server can write them: 1 MiB ahead after 16.
            let request = APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 100_000, "pad": 65536])
            let error = await #expect(throws: APIError.self) {
                var first = true
                for try await _ in client.events(request, reconnecting: Self.eager) where first {
                    first = false
                    // The read-ahead must fill at the network's own pace while the loop is away.
                    try await Task.sleep(for: .seconds(1))  // Real time on purpose: no test clock paces a network.
                }
            }
            #expect(error?.kind == .bodyTooLarge, "\(String(describing: error))")
            #expect(error?.description.contains("fell more than 1 MiB behind") == true)
            #expect(try await EventStreamTests.stats(key, client).opened == 1)
        }
    #endif
}
