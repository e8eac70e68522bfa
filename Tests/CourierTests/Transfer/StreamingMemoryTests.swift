import Courier
import Foundation
import Synchronization
import Testing

/// Memory bounds of streamed uploads, measured by ``MemoryProbe`` in a test run of their own.
@Suite(
    .serialized, .timeLimit(.minutes(2)), .enabled(if: MemoryProbe.runAlone, "run by scripts/test on their own"),
    .enabled(if: MemoryProbe.canMeasure, "resident memory can't be read here"))
struct StreamingMemoryTests {
    static let size = 200 * 1024 * 1024

    /// Two measures of the process, each from its value when an upload starts, with what glibc kept of freed
    /// memory given back (`malloc_trim`) first: bytes the allocator has handed out (what the process actually
    /// holds) and resident memory, which also counts freed memory glibc keeps in its arenas. Both are sampled
    /// every 10 ms while the upload runs and for 250 ms after it, and the peak counts. Resident memory is
    /// bounded on a second upload, after the first has paid for what starts lazily (the shared HTTP client's
    /// event-loop threads, their arenas, code touched for the first time); the bytes handed out, on both.
    /// A client that loaded the file, or queued it faster than the socket takes it, fails both bounds: before
    /// `HTTPClientTransport` paced its request bodies, the process held 20–37 MiB more during each upload.
    @Test func a200MiBMultipartUploadStreamsWithBoundedMemory() async throws {
        let file = try Self.writeFile(size: Self.size)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = APIClient(baseURL: try await TestServers.testServerURL())  // the default transport streams
        let runs = try await MemoryProbe.peakGrowthOfTwoRuns { _ in try await Self.upload(file, with: client) }
        print("200 MiB multipart upload (client and in-process server): \(runs)")
        for growth in [runs.first, runs.second] {
            if let allocated = growth.allocated {
                #expect(allocated < 8 * MemoryProbe.mebibyte, "the process held \(growth) more while streaming 200 MiB")
            }
        }
        #expect(
            runs.second.resident < 32 * MemoryProbe.mebibyte,
            "resident memory grew \(runs.second) while streaming 200 MiB")
    }

    struct UploadReport: Decodable, Sendable {
        let bytes: Int64
        let sha256: String?
        let contentLength: Int64?
    }

    struct UploadMismatch: Error {
        let report: String
        let steps: Int
    }

    static func writeFile(size: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-200MiB-\(UUID().uuidString).bin")
        _ = FileManager.default.createFile(atPath: file.path(percentEncoded: false), contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        let block = Data((0..<(1 << 20)).map { UInt8($0 % 251) })
        for _ in 0..<(size >> 20) { try handle.write(contentsOf: block) }
        try handle.close()
        return file
    }

    /// Uploads `file` as multipart to the demo server's counting route; fails if the upload or its progress
    /// is wrong.
    static func upload(_ file: URL, with client: APIClient) async throws {
        var form = MultipartFormData()
        form.append("big", name: "label")
        try form.appendFile(at: file, name: "blob")
        let progress = Mutex<[Int64]>([])
        let body = RequestBody.multipart(form).reportingProgress { p in
            progress.withLock { $0.append(p.completedBytes) }
        }
        let report = try await client.send(
            APIRequest<UploadReport>.post("/testing/upload", query: ["digest": "none"], body: body))
        let steps = progress.withLock { $0 }
        guard report.bytes > Int64(size), report.contentLength == report.bytes,
            zip(steps, steps.dropFirst()).allSatisfy({ $0 < $1 }), steps.last == report.bytes
        else { throw UploadMismatch(report: String(describing: report), steps: steps.count) }
    }
}
