import CCourierZlib
import CourierDemoServer
import Hummingbird
import NIOCore
import Synchronization

/// Compressed and hostile bodies, for content decoding and body limits:
///
/// - `GET /testing/encoded/{coding}?text=…&repeat=1` → `200`, `text` (default `{"ok":true}`, labelled JSON)
///   repeated `repeat` times (at most 100000), compressed with
///   `gzip` or `deflate` (zlib format), with that `Content-Encoding`; `{coding}` = `br` or `zstd` sends the
///   text uncompressed but labelled so (a coding the client did not ask for); `corrupt` sends `gzip` that
///   breaks after its header; `truncated` sends the first half of the gzip stream.
/// - `GET /testing/gzip-bomb?mib=1024` → `mib` MiB (1…4096) of zeros as one gzip stream (~1 MiB on the wire
///   per GiB), with `Content-Length` of the compressed bytes; each size is compressed on first use and kept.
/// - `GET /testing/endless` → `200`, no `Content-Length`, the ``DeterministicBytes`` pattern in 64 KiB chunks
///   until the client goes away.
enum EncodedBodyRoutes {
    static func add(to router: Router<DemoContext>) {
        router.get("/testing/encoded/{coding}") { request, context in
            let query = QueryItems(request)
            let text = query["text"] ?? #"{"ok":true}"#
            let bytes = Array(
                String(repeating: text, count: try query.integer("repeat", default: 1, in: 1...100_000)).utf8)
            let coding = context.parameters.get("coding") ?? ""
            let body: [UInt8]
            var label = coding
            switch coding {
            case "gzip": body = Zlib.compress(bytes, gzip: true)
            case "deflate": body = Zlib.compress(bytes, gzip: false)
            case "br", "zstd": body = bytes
            case "corrupt":
                body = Array(Zlib.compress(bytes, gzip: true).prefix(10)) + [0xff, 0xff, 0xff, 0xff]
                label = "gzip"
            case "truncated":
                let whole = Zlib.compress(bytes, gzip: true)
                body = Array(whole.prefix(whole.count / 2))
                label = "gzip"
            default: throw BadRequest(message: "coding must be gzip, deflate, br, zstd, corrupt or truncated")
            }
            let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: label]
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("/testing/gzip-bomb") { request, _ in
            let mebibytes = try QueryItems(request).integer("mib", default: 1024, in: 1...4096)
            let compressed = Bombs.shared.gzip(zeroMebibytes: mebibytes)
            let headers: HTTPFields = [.contentType: "application/json", .contentEncoding: "gzip"]
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: compressed))
        }
        router.get("/testing/endless") { _, _ in
            // `Int.max` bytes take 29 years at 10 GB/s: the body ends when a write fails, the client gone.
            let body = ResponseBody { writer in try await DeterministicBytes.write(count: .max, to: &writer) }
            return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: body)
        }
    }

    /// Gzip bombs by size, compressed on first use and kept. The lock is not held while compressing, so
    /// requests for a size not yet kept may each compress it; they get equal bytes, and the last one is kept.
    final class Bombs: Sendable {
        static let shared = Bombs()
        private let built = Mutex<[Int: ByteBuffer]>([:])

        func gzip(zeroMebibytes: Int) -> ByteBuffer {
            if let bomb = built.withLock({ $0[zeroMebibytes] }) { return bomb }
            let bomb = ByteBuffer(bytes: Zlib.compressZeros(mebibytes: zeroMebibytes))
            built.withLock { $0[zeroMebibytes] = bomb }
            return bomb
        }
    }
}

/// zlib's deflate, for the test bodies above.
enum Zlib {
    /// `bytes` as one gzip (or zlib) stream.
    static func compress(_ bytes: [UInt8], gzip: Bool) -> [UInt8] {
        var input = bytes
        return input.withUnsafeMutableBufferPointer { source in
            deflate(gzip: gzip) { stream, out in
                stream.pointee.next_in = source.baseAddress
                stream.pointee.avail_in = uInt(source.count)
                return out(Z_FINISH)
            }
        }
    }

    /// `mebibytes` MiB of zeros as one gzip stream, fed to zlib 1 MiB at a time.
    static func compressZeros(mebibytes: Int) -> [UInt8] {
        var zeros = [UInt8](repeating: 0, count: 1 << 20)
        return zeros.withUnsafeMutableBufferPointer { source in
            deflate(gzip: true) { stream, out in
                for index in 0..<mebibytes {
                    stream.pointee.next_in = source.baseAddress
                    stream.pointee.avail_in = uInt(source.count)
                    out(index == mebibytes - 1 ? Z_FINISH : Z_NO_FLUSH)
                }
            }
        }
    }

    /// Runs a deflate stream: `feed` sets the input and calls its second argument with a flush mode to drain
    /// the output (until the input is used, or the stream ends after `Z_FINISH`).
    private static func deflate(
        gzip: Bool,
        _ feed: (UnsafeMutablePointer<z_stream>, (Int32) -> Void) -> Void
    ) -> [UInt8] {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            deflateEnd(stream)
            stream.deallocate()
        }
        guard courier_deflate_init(stream, 9, gzip ? 31 : 15) == Z_OK else { return [] }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        feed(stream) { flush in
            buffer.withUnsafeMutableBufferPointer { out in
                repeat {
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    let result = CCourierZlib.deflate(stream, flush)
                    output.append(contentsOf: out.prefix(out.count - Int(stream.pointee.avail_out)))
                    if result == Z_STREAM_END || result < 0 { return }
                } while stream.pointee.avail_out == 0 || (flush == Z_FINISH)
            }
        }
        return output
    }
}
