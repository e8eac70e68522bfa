import Courier
import Foundation
import Synchronization
import Testing

/// Downloads stream to a file over every transport, report progress, and never leave partial files.
@Suite(.timeLimit(.minutes(1))) struct DownloadConformanceTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "courier-downloads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test(arguments: TransportUnderTest.all)
    func bodyLandsInTheFileWithMonotonicProgress(transport: TransportUnderTest) async throws {
        let size = 3 * 1024 * 1024 + 17
        let destination = try folder().appending(path: "bytes.bin")
        let seen = Mutex<[TransferProgress]>([])
        let response = try await transport.demoClient().download(
            APIRequest<Void>.get("/bytes/\(size)"), to: destination
        ) {
            progress in seen.withLock { $0.append(progress) }
        }
        #expect(response.value == destination)
        let data = try Data(contentsOf: destination)
        #expect(data.count == size)
        #expect(data.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) }, "bytes differ from the pattern")
        let progress = seen.withLock { $0 }
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completedBytes < $1.completedBytes })
        #expect(progress.last == TransferProgress(completedBytes: Int64(size), totalBytes: Int64(size)))
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: destination.deletingLastPathComponent().path)
        #expect(leftovers == ["bytes.bin"])
    }

    @Test(arguments: TransportUnderTest.all)
    func failedDownloadsLeaveNothingBehind(transport: TransportUnderTest) async throws {
        let folder = try folder()
        let client = try await transport.demoClient()
        let missing = await #expect(throws: APIError.self) {
            try await client.download(APIRequest<Void>.get("/status/404"), to: folder.appending(path: "a.bin"))
        }
        #expect(missing?.kind == .unacceptableStatus)
        let truncated = await #expect(throws: APIError.self) {
            try await client.download(APIRequest<Void>.get("/truncated"), to: folder.appending(path: "b.bin"))
        }
        #expect(truncated?.kind == .transport)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: TransportUnderTest.all)
    func existingFileIsReplacedOnlyWhenComplete(transport: TransportUnderTest) async throws {
        let destination = try folder().appending(path: "keep.bin")
        try Data("old".utf8).write(to: destination)
        let client = try await transport.demoClient()
        _ = try? await client.download(APIRequest<Void>.get("/truncated"), to: destination)
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        _ = try await client.download(APIRequest<Void>.get("/bytes/10"), to: destination)
        #expect(try Data(contentsOf: destination) == Data((0..<10).map { UInt8($0) }))
    }
}

extension DownloadConformanceTests {
    @Test func unwritableDestinationIsAFileAccessError() async throws {
        let client = try await TransportUnderTest.urlSession.demoClient()
        let nowhere = URL(filePath: "/nonexistent-folder-\(UUID().uuidString)/x.bin")
        let error = await #expect(throws: APIError.self) {
            try await client.download(APIRequest<Void>.get("/bytes/10"), to: nowhere)
        }
        #expect(error?.kind == .fileAccess)
    }
}
