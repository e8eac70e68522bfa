import Courier
import Foundation
import Testing

/// Server-sent events framed by a server nobody on the project wrote: sse-starlette under uvicorn
/// (`scripts/servers/sse_app.py`, started by `scripts/test`), on every transport.
@Suite(
    .timeLimit(.minutes(1)),
    .enabled(if: TestServers.sseServerAvailable, "run scripts/test, or set COURIER_SSE_URL"))
struct RealSSEServerTests {
    struct Token: Decodable, Sendable, Equatable {
        let index: Int
        let token: String
    }

    func client(_ transport: TransportUnderTest) throws -> APIClient {
        let url = try #require(TestServers.sseServerURL, "COURIER_SSE_URL is not set")
        return APIClient(baseURL: url, transport: transport.make())
    }

    /// sse-starlette's line ends: CR LF (its default), LF, and CR alone.
    @Test(arguments: TransportUnderTest.all, ["crlf", "lf", "cr"])
    func tokensArriveTypedAndInOrder(transport: TransportUnderTest, separator: String) async throws {
        let client = try client(transport)
        var tokens: [Token] = []
        var ids: [String] = []
        var last: ServerSentEvent?
        // A keep-alive comment every 10 ms comes between the events (20 ms apart); odd tokens' JSON spans lines.
        let chat = APIRequest<Void>.get("/chat", query: ["count": 8, "sep": separator, "ping": 0.01])
        for try await event in client.events(chat, reconnecting: .never) {
            guard event.type == "token" else {
                last = event
                continue
            }
            tokens.append(try event.decode(Token.self))
            ids.append(event.lastEventID)
        }
        #expect(tokens == (0..<8).map { Token(index: $0, token: "tok\($0) é✓") })
        #expect(ids == (0..<8).map(String.init))
        #expect(last?.type == "done" && last?.data == "[DONE]")
    }

    @Test(arguments: TransportUnderTest.all)
    func aRetryFieldIsTakenAndTheLastEventIDPersists(transport: TransportUnderTest) async throws {
        var events: [ServerSentEvent] = []
        for try await event in try client(transport).events(
            APIRequest<Void>.get("/chat", query: ["count": 2, "last": 1]), reconnecting: .never)
        {
            events.append(event)
        }
        #expect(events.map(\.type) == ["token", "token", "done"])
        #expect(events.last?.retry == .milliseconds(250))
        #expect(events.last?.lastEventID == "1")  // the done event has no id of its own
    }
}
