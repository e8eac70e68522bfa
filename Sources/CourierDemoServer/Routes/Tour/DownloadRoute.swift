import Hummingbird

/// Resumable downloads: `GET /testing/download/{n}` → n bytes (0 ≤ n ≤ 2 GiB), byte i being
/// `UInt8(i % 251)` as for `/bytes`, streamed in 64 KiB chunks with `Content-Length`,
/// `Accept-Ranges: bytes` and the strong `ETag: "dl-<n>"`.
///
/// - `Range: bytes=a-b`, `bytes=a-` or `bytes=-k` → `206` with `Content-Range: bytes a-b/n`; a range
///   starting past the end → `416` with `Content-Range: bytes */n`; a malformed or multi-range header is
///   ignored (`200`, whole body).
/// - `If-Range` other than the ETag (a date included: there is no `Last-Modified`) → the whole body, `200`.
/// - `?failAfter=k` sends the head with the full `Content-Length`, then only k bytes, then closes the
///   connection (an interrupted download; resume it with `Range`).
/// - `GET /testing/download/stats` → `{"requests", "partial", "unsatisfiable", "interrupted"}`;
///   `POST /testing/download/stats/reset` zeroes them → `204`.
enum DownloadRoute {
    static let maximumCount = 2 * 1024 * 1024 * 1024

    static func add(to router: Router<DemoContext>, counters: DownloadCounters) {
        router.get("/testing/download/stats") { _, _ in
            try DemoResponses.json(counters.current)
        }
        router.post("/testing/download/stats/reset") { _, _ in
            counters.reset()
            return Response(status: .noContent)
        }
        router.get("/testing/download/{n}") { request, context in
            guard let text = context.parameters.get("n"), let count = Int(text), (0...maximumCount).contains(count)
            else {
                throw BadRequest(message: "n must be an integer in 0...\(maximumCount)")
            }
            let failAfter = try QueryItems(request).optionalInteger("failAfter", in: 0...maximumCount)
            let etag = "\"dl-\(count)\""
            var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes", .eTag: etag]
            let ifRange = request.headers[.ifRange]
            let range =
                ifRange == nil || ifRange == etag ? ByteRange(header: request.headers[.range], length: count) : nil
            var status = HTTPResponse.Status.ok
            var first = 0
            var length = count
            switch range {
            case .unsatisfiable:
                counters.count {
                    $0.requests += 1
                    $0.unsatisfiable += 1
                }
                headers[.contentRange] = "bytes */\(count)"
                headers[.contentType] = nil
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .satisfiable(let rangeFirst, let rangeLast):
                status = .partialContent
                first = rangeFirst
                length = rangeLast - rangeFirst + 1
                headers[.contentRange] = "bytes \(rangeFirst)-\(rangeLast)/\(count)"
            case nil:
                break
            }
            let interrupted = failAfter.map { $0 < length } ?? false
            counters.count {
                $0.requests += 1
                if status == .partialContent { $0.partial += 1 }
                if interrupted { $0.interrupted += 1 }
            }
            let sent = interrupted ? failAfter ?? length : length
            let body = ResponseBody(contentLength: length) { [first] writer in
                try await DeterministicBytes.write(count: sent, from: first, to: &writer)
                // Throwing from the body writer makes Hummingbird close the connection mid-body.
                if interrupted { throw DeterministicBytes.CutShort() }
                try await writer.finish(nil)
            }
            return Response(status: status, headers: headers, body: body)
        }
    }
}
