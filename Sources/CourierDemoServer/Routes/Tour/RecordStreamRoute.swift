import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Streamed JSON records, for streaming tests and the benchmarks:
///
/// `GET /testing/records?count=N&format=jsonl|json-seq&pad=P&intervalMs=M&crlf=1&badAt=K&endless=1` → N
/// records (default 5) `{"n":i,"pad":"xx…"}` with P x's (default 0), M ms apart (default 0, written in
/// batches of up to 64 KiB when 0), as JSON Lines (`application/jsonl`, LF or with `crlf` CR LF line ends)
/// or JSON text sequences (`application/json-seq`, RS … LF); record K (`badAt`) is cut short (`{"n":`) to fail
/// decoding, record B (`bigAt`) has 100 times the padding; `endless` sends one record that never ends
/// (`{"n":0,"pad":"xxx…` forever, in 64 KiB writes M ms apart).
enum RecordStreamRoute {
    static func add(to router: Router<DemoContext>) {
        router.get("/testing/records") { request, _ in
            let query = QueryItems(request)
            let count = try query.integer("count", default: 5, in: 0...100_000_000)
            let pad = try query.integer("pad", default: 0, in: 0...16 * 1024 * 1024)
            let interval = try query.integer("intervalMs", default: 0, in: 0...60_000)
            let badAt = try query.optionalInteger("badAt", in: 0...100_000_000)
            let bigAt = try query.optionalInteger("bigAt", in: 0...100_000_000)
            let sequence = query["format"] == "json-seq"
            let endless = query["endless"] != nil
            let lineEnd = query["crlf"] != nil ? "\r\n" : "\n"
            let padding = String(repeating: "x", count: pad)
            let body = ResponseBody { writer in
                if endless {
                    try await writer.write(ByteBuffer(string: (sequence ? "\u{1E}" : "") + "{\"n\":0,\"pad\":\""))
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
                    while true {
                        try await writer.write(chunk)
                        if interval > 0 { try await Task.sleep(for: .milliseconds(interval)) }
                    }
                }
                var batch = ByteBuffer()
                for index in 0..<count {
                    let recordPadding = index == bigAt ? String(repeating: padding, count: 100) : padding
                    let json = index == badAt ? "{\"n\":" : "{\"n\":\(index),\"pad\":\"\(recordPadding)\"}"
                    batch.writeString(sequence ? "\u{1E}\(json)\n" : json + lineEnd)
                    if interval > 0 || batch.readableBytes >= 64 * 1024 {
                        if interval > 0 && index > 0 { try await Task.sleep(for: .milliseconds(interval)) }
                        try await writer.write(batch)
                        batch.clear()
                    }
                }
                if batch.readableBytes > 0 { try await writer.write(batch) }
                try await writer.finish(nil)
            }
            let type = sequence ? "application/json-seq" : "application/jsonl"
            return Response(status: .ok, headers: [.contentType: type], body: body)
        }
    }
}
