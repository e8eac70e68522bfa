import Courier
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Large, interrupted and resumed downloads against the demo server's ranged download route, whose byte i
/// is `i % 251`.
@Suite(.timeLimit(.minutes(2))) struct ResumableDownloadTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "courier-resume-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Whether the file holds exactly `size` bytes of the `i % 251` pattern, compared a mebibyte at a time.
    func holdsPattern(_ file: URL, size: Int) throws -> Bool {
        let block = 1 << 20
        let pattern = Data((0..<(block + 251)).map { UInt8($0 % 251) })
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var offset = 0
        while let chunk = try handle.read(upToCount: block), !chunk.isEmpty {
            let phase = offset % 251
            guard chunk == pattern[phase..<(phase + chunk.count)] else { return false }
            offset += chunk.count
        }
        return offset == size
    }

    @Test func a100MiBBodyArrivesIdenticalWithMonotonicProgressEndingAtTheTotal() async throws {
        let size = 100 * 1024 * 1024
        let destination = try folder().appending(path: "big.bin")
        let seen = Mutex<(count: Int, last: TransferProgress?, monotonic: Bool)>((0, nil, true))
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        _ = try await client.download(APIRequest<Void>.get("/testing/download/\(size)"), to: destination) { progress in
            seen.withLock { state in
                if let last = state.last, progress.completedBytes <= last.completedBytes { state.monotonic = false }
                state = (state.count + 1, progress, state.monotonic)
            }
        }
        #expect(try holdsPattern(destination, size: size))
        let state = seen.withLock { $0 }
        #expect(state.monotonic)
        #expect(state.last == TransferProgress(completedBytes: Int64(size), totalBytes: Int64(size)))
    }

    @Test func anInterruptedDownloadResumesWithRangeAndEndsIdentical() async throws {
        let size = 5 * 1024 * 1024 + 7
        let folder = try folder()
        let destination = folder.appending(path: "resumed.bin")
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let error = await #expect(throws: APIError.self) {
            try await client.download(
                APIRequest<Void>.get("/testing/download/\(size)", query: ["failAfter": 1_000_000]), to: destination)
        }
        let resume = try #require(error?.resumeData, "an interrupted download with an ETag must be resumable")
        #expect(resume.bytesReceived > 0)
        #expect(resume.bytesReceived <= 1_000_000)
        #expect(!FileManager.default.fileExists(atPath: destination.path), "no partial file at the destination")

        let firstProgress = Mutex<TransferProgress?>(nil)
        let response = try await client.download(
            APIRequest<Void>.get("/testing/download/\(size)"), to: destination, resumingFrom: resume
        ) { progress in firstProgress.withLock { $0 = $0 ?? progress } }
        #expect(response.status == .partialContent)
        #expect((firstProgress.withLock { $0 }?.completedBytes ?? 0) > resume.bytesReceived)
        #expect(try holdsPattern(destination, size: size))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["resumed.bin"])
    }

    @Test func aChangedResourceStartsOverInsteadOfAppending() async throws {
        let folder = try folder()
        let destination = folder.appending(path: "changed.bin")
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let error = await #expect(throws: APIError.self) {
            try await client.download(
                APIRequest<Void>.get("/testing/download/300000", query: ["failAfter": 100_000]), to: destination)
        }
        let stale = try #require(error?.resumeData)
        let changed = DownloadResumeData(
            partialFile: stale.partialFile, bytesReceived: stale.bytesReceived, validator: "\"some-other-etag\"",
            totalBytes: stale.totalBytes)
        let response = try await client.download(
            APIRequest<Void>.get("/testing/download/300000"), to: destination, resumingFrom: changed)
        #expect(response.status == .ok)
        #expect(try holdsPattern(destination, size: 300_000))
    }
}

extension ResumableDownloadTests {
    @Test func aTimedOutDownloadLeavesNoFileBehind() async throws {
        let folder = try folder()
        let client = APIClient(baseURL: try await TestServers.testServerURL()) { $0.timeout = .milliseconds(300) }
        let error = await #expect(throws: APIError.self) {
            try await client.download(
                APIRequest<Void>.get("/testing/download/\(2 * 1024 * 1024 * 1024 - 1)"),
                to: folder.appending(path: "huge.bin"))
        }
        #expect(error?.kind == .timedOut)
        #expect(error?.resumeData == nil)
        try await eventually("the partial file deleted") {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty
        }
    }
}
