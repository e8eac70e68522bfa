import Foundation
import Testing

@testable import Courier

/// A file sent as the whole request body: streamed from disk with its length declared, byte for byte, on
/// every transport; a file that can't be read fails before anything is sent, naming it.
@Suite(.timeLimit(.minutes(1)))
struct FileBodyTests {
    /// What the test server's upload route read.
    struct Received: Decodable, Sendable {
        let bytes: Int
        let sha256: String?
        let contentType: String?
        let chunked: Bool
        let contentLength: Int?
    }

    /// 300 KiB and a little more of varied bytes: several 64 KiB chunks and a short last one.
    static func makeFile() throws -> (URL, Data) {
        let data = Data((0..<(300 * 1024 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-file-body-\(UUID().uuidString)")
        try data.write(to: file)
        return (file, data)
    }

    /// The SHA-256 of `file` as coreutils computes it.
    static func sha256(of file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/sha256sum")
        process.arguments = [file.path(percentEncoded: false)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix { $0 != " " })
    }

    @Test(arguments: TransportUnderTest.all)
    func aFileIsSentByteForByteWithItsLength(transport: TransportUnderTest) async throws {
        let (file, data) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try await transport.demoClient()
        let request = APIRequest<Received>.put(
            "/testing/upload", body: .file(file, contentType: "application/x-courier-test"))
        // Sent twice with the same body: each send reads the file again.
        for _ in 0..<2 {
            let received = try await client.send(request)
            #expect(received.bytes == data.count)
            #expect(received.contentLength == data.count && !received.chunked)
            #expect(received.contentType == "application/x-courier-test")
            #expect(received.sha256 == (try Self.sha256(of: file)))
        }
    }

    @Test func aFileThatCantBeReadFailsBeforeAnythingIsSent() async throws {
        let missing = FileManager.default.temporaryDirectory.appending(path: "courier-missing-\(UUID().uuidString)")
        let client = try await TransportUnderTest.httpClient.demoClient()
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Void>.put("/testing/upload", body: .file(missing)))
        }
        #expect(error?.kind == .fileAccess)
        #expect(error?.phase == .building)
        #expect(
            error?.description.contains(missing.path(percentEncoded: false)) == true, "\(String(describing: error))")
        #expect(error?.description.contains("PUT") == true)
    }

    @Test func anEmptyFileIsAnEmptyBodyOfDeclaredLength() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-empty-\(UUID().uuidString)")
        try Data().write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let client = try await TransportUnderTest.httpClient.demoClient()
        let received = try await client.send(APIRequest<Received>.put("/testing/upload", body: .file(file)))
        #expect(received.bytes == 0 && received.contentLength == 0)
    }

    /// A file read to a size it no longer has, shorter or longer, fails instead of sending the wrong bytes.
    @Test(arguments: [-1, 1] as [Int64])
    func aFileThatChangedSizeFails(by change: Int64) throws {
        let (file, data) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: file) }
        var reader = FileChunkReader(url: file, size: Int64(data.count) - change)
        var read = 0
        let error = #expect(throws: FileChunkReader.FileChanged.self) {
            while let chunk = try reader.next() { read += chunk.count }
        }
        #expect(error?.expected == Int64(data.count) - change)
        // Every byte the file has was read (one byte past the expected size tells that it grew), none sent
        // past the size.
        #expect(error?.found == Int64(data.count))
        #expect(read == min(data.count, data.count - Int(change)))
        #expect(try reader.next() == nil, "a failed reader stays finished")
    }

    /// A symbolic link to a file sends the file.
    @Test func aSymbolicLinkIsFollowed() async throws {
        let (file, data) = try Self.makeFile()
        let link = FileManager.default.temporaryDirectory.appending(path: "courier-link-\(UUID().uuidString)")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        defer {
            try? FileManager.default.removeItem(at: link)
            try? FileManager.default.removeItem(at: file)
        }
        let client = try await TransportUnderTest.httpClient.demoClient()
        let received = try await client.send(APIRequest<Received>.put("/testing/upload", body: .file(link)))
        #expect(received.bytes == data.count)
    }
}
