import CAllocatorStats
import Courier
import Foundation
import Synchronization
import Testing

/// Memory bounds of streamed transfers. Resident memory is a property of the whole process, so these run
/// in a `swift test` of their own, with nothing else running: `scripts/test` skips them in the main run
/// and then runs them alone. (Run directly: `COURIER_MEMORY_TESTS=1 swift test --filter StreamingMemoryTests`.)
@Suite(.serialized, .timeLimit(.minutes(2))) struct StreamingMemoryTests {
    static var runAlone: Bool { ProcessInfo.processInfo.environment["COURIER_MEMORY_TESTS"] == "1" }
    static let size = 200 * 1024 * 1024

    /// Two measures, sampled every 10 ms while the upload runs: bytes the allocator has handed out (what
    /// the process actually holds) and resident memory, which also counts freed memory glibc keeps in its
    /// arenas. Resident memory is bounded on a second upload, after the first has paid for what starts
    /// lazily (the shared HTTP client's event-loop threads, their arenas, code touched for the first time).
    /// A client that loaded the file, or queued it faster than the socket takes it, fails both bounds: before
    /// `HTTPClientTransport` paced its request bodies, the process held 20–37 MiB more during each upload.
    @Test(.enabled(if: runAlone, "run by scripts/test on their own"))
    func a200MiBMultipartUploadStreamsWithBoundedMemory() async throws {
        let file = try Self.writeFile(size: Self.size)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = APIClient(baseURL: try await TestServers.demoURL())  // the default transport streams
        let first = try await Self.upload(file, with: client)
        let second = try await Self.upload(file, with: client)
        print("200 MiB multipart upload (client and in-process server): \(first) on the first, \(second) on the second")
        for growth in [first, second] {
            if let allocated = growth.allocated {
                #expect(allocated < 8 * Self.mebibyte, "the process held \(growth) more while streaming 200 MiB")
            }
        }
        #expect(second.resident < 32 * Self.mebibyte, "resident memory grew \(second) while streaming 200 MiB")
    }

    static let mebibyte: Int64 = 1024 * 1024

    /// How much memory grew at its peak during one upload.
    struct Growth: CustomStringConvertible {
        let allocated: Int64?
        let resident: Int64

        var description: String {
            let held = allocated.map { "\($0 / mebibyte) MiB allocated, " } ?? ""
            return "\(held)\(resident / mebibyte) MiB resident"
        }
    }

    /// The highest value a measure reached while sampled.
    final class Peak: Sendable {
        let baseline: Int64
        let highest: Atomic<Int64>
        let measure: @Sendable () -> Int64?

        init(_ measure: @escaping @Sendable () -> Int64?) {
            self.measure = measure
            baseline = measure() ?? 0
            highest = Atomic(baseline)
        }

        func sample() { if let value = measure() { highest.max(value, ordering: .relaxed) } }
        var growth: Int64 { highest.load(ordering: .relaxed) - baseline }
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

    /// Uploads `file` as multipart to the demo server's counting route and returns how much memory grew at
    /// its peak; fails if the upload or its progress is wrong.
    static func upload(_ file: URL, with client: APIClient) async throws -> Growth {
        var form = MultipartFormData()
        form.append("big", name: "label")
        try form.appendFile(at: file, name: "blob")
        let progress = Mutex<[Int64]>([])
        let allocated = allocatedBytes() == nil ? nil : Peak { allocatedBytes() }  // nil where glibc can't say
        let resident = Peak { residentMemory() }
        let sampler = Task {
            while !Task.isCancelled {
                allocated?.sample()
                resident.sample()
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        defer { sampler.cancel() }
        let body = RequestBody.multipart(form).reportingProgress { p in
            progress.withLock { $0.append(p.completedBytes) }
        }
        let report = try await client.send(
            APIRequest<UploadReport>.post("/testing/upload", query: ["digest": "none"], body: body))
        allocated?.sample()
        resident.sample()
        let steps = progress.withLock { $0 }
        guard report.bytes > Int64(size), report.contentLength == report.bytes,
            zip(steps, steps.dropFirst()).allSatisfy({ $0 < $1 }), steps.last == report.bytes
        else { throw UploadMismatch(report: "\(report)", steps: steps.count) }
        return Growth(allocated: allocated?.growth, resident: resident.growth)
    }

    /// Bytes the C allocator has handed out and not taken back (see `courier_allocated_bytes`); `nil` where
    /// that is not known.
    static func allocatedBytes() -> Int64? {
        let bytes = courier_allocated_bytes()
        return bytes < 0 ? nil : Int64(bytes)
    }

    /// Resident memory of this process now, in bytes (Linux `/proc`).
    static func residentMemory() -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int64($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 }
    }
}
