import CourierDemoServer
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// Server-sent events, for streaming tests and the tour:
///
/// - `GET|POST /testing/events/{key}?count=N&intervalMs=M&retry=R&dropAfter=K&stopWith204=1&pad=P`: a
///   `text/event-stream` of events 0..<N (default 5) M ms apart (default 0), event i being `id: i`,
///   `event: tick`, `data: {"n":i}` (with `"pad":"xx…"`, P x's, when P > 0); it starts after the request's `Last-Event-ID` when there is one. `retry`
///   sends `retry: R` first; on the key's first connection, `dropAfter` sends half of the event after K and
///   then closes the connection, without ending the body properly; `stopWith204` answers every later
///   connection `204 No Content`, and `reconnectStatus=S` answers them `S` with `{"message": …}`. A comment line (`: tick`) comes
///   before each event. `endlessLine=1` follows the events with a `data:` line that never ends (64 KiB of x's
///   at a time, as fast as the client takes them, until it goes away).
/// - `GET /testing/events/{key}/stats` → `{"opened": o, "closed": c, "lastEventIDs": [...]}`: streams opened
///   for `key`, streams that ended because the client went away, and each request's `Last-Event-ID` ("" when
///   none).
enum EventStreamRoutes {
    struct Stats: Encodable {
        var opened = 0
        var closed = 0
        var lastEventIDs: [String] = []
    }

    final class Counters: Sendable {
        let stats = Mutex<[String: Stats]>([:])
        init() {}
    }

    static func add(to router: Router<DemoContext>, counters: Counters) {
        let handler: @Sendable (Request, DemoContext) async throws -> Response = { request, context in
            let key = context.parameters.get("key") ?? ""
            let query = QueryItems(request)
            let count = try query.integer("count", default: 5, in: 0...1_000_000)
            let interval = try query.integer("intervalMs", default: 0, in: 0...60_000)
            let retry = try query.optionalInteger("retry", in: 0...600_000)
            let dropAfterOnFirst = try query.optionalInteger("dropAfter", in: 0...1_000_000)
            let endlessLine = ["1", "true"].contains(query["endlessLine"])
            let padding = String(repeating: "x", count: try query.integer("pad", default: 0, in: 0...1_048_576))
            let lastEventID = request.headers[.lastEventID] ?? ""
            let start = (Int(lastEventID) ?? -1) + 1
            let opened = counters.stats.withLock { stats in
                stats[key, default: Stats()].opened += 1
                stats[key, default: Stats()].lastEventIDs.append(lastEventID)
                return stats[key, default: Stats()].opened
            }
            // A reconnection may be told to stop.
            if opened > 1, ["1", "true"].contains(query["stopWith204"]) { return Response(status: .noContent) }
            if opened > 1, let code = try query.optionalInteger("reconnectStatus", in: 400...599) {
                return try DemoResponses.json(
                    DemoResponses.Message(message: "reconnection refused"), status: ReasonPhrase.status(code))
            }
            // Only the first connection drops.
            let dropAfter = opened == 1 ? dropAfterOnFirst : nil
            let body = ResponseBody { writer in
                var completed = false
                do {
                    try await request.body.consumeWithCancellationOnInboundClose { _ in
                        if let retry { try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n")) }
                        for (sent, index) in (start..<max(start, count)).enumerated() {
                            if let dropAfter, sent >= dropAfter {
                                // Half an event, a moment for the bytes before it to reach the client, then
                                // the connection drops.
                                try await writer.write(ByteBuffer(string: "id: \(index)\nevent: tick\ndata: {\"n\""))
                                try await Task.sleep(for: .milliseconds(100))
                                throw DroppedOnPurpose()
                            }
                            if sent > 0 && interval > 0 { try await Task.sleep(for: .milliseconds(interval)) }
                            let data = padding.isEmpty ? "{\"n\":\(index)}" : "{\"n\":\(index),\"pad\":\"\(padding)\"}"
                            let event = ": tick\nid: \(index)\nevent: tick\ndata: \(data)\n\n"
                            try await writer.write(ByteBuffer(string: event))
                        }
                        if endlessLine {
                            try await writer.write(ByteBuffer(string: "data: "))
                            let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
                            while true { try await writer.write(chunk) }
                        }
                        completed = true
                    }
                } catch is DroppedOnPurpose {
                    throw DroppedOnPurpose()
                } catch {
                    counters.stats.withLock { $0[key, default: Stats()].closed += 1 }
                    throw error
                }
                if !completed { counters.stats.withLock { $0[key, default: Stats()].closed += 1 } }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-cache", .connection: "close"],
                body: body)
        }
        router.get("/testing/events/{key}", use: handler)
        router.post("/testing/events/{key}", use: handler)
        router.get("/testing/events/{key}/stats") { _, context in
            let key = context.parameters.get("key") ?? ""
            return try DemoResponses.json(counters.stats.withLock { $0[key] ?? Stats() })
        }
    }

    /// Ends a stream mid-body, as a dropped connection does.
    struct DroppedOnPurpose: Error {}
}
