import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// Multipart bodies: exact bytes (unit), httpbin's parse of tricky names, and a 200 MiB streamed upload.
@Suite(.timeLimit(.minutes(2))) struct MultipartTests {
    @Test func bytesOnTheWireFollowTheFormat() async throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.append("Ada Lovelace", name: "author")
        form.append(Data("hi".utf8), name: "na\"me\r\n", filename: "a\"b.txt", contentType: "text/plain")
        let mock = MockTransport { _ in (HTTPResponse(status: .noContent), Data()) }
        let client = APIClient(baseURL: exampleBaseURL, transport: mock)
        try await client.send(APIRequest<Void>.post("/upload", body: .multipart(form)))
        let sent = try #require(mock.requests.first)
        let expected =
            "--XyZ\r\nContent-Disposition: form-data; name=\"author\"\r\n\r\nAda Lovelace\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"na%22me%0D%0A\"; filename=\"a%22b.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nhi\r\n--XyZ--\r\n"
        #expect(sent.bodyText == expected)
        #expect(sent.headerFields[.contentType] == "multipart/form-data; boundary=XyZ")
    }

    @Test func boundariesAreRandom() {
        #expect(MultipartFormData().boundary != MultipartFormData().boundary)
    }

    @Test func anUnreadableFileIsAnError() {
        var form = MultipartFormData()
        #expect(throws: (any Error).self) {
            try form.appendFile(at: URL(filePath: "/nonexistent/\(UUID().uuidString)"), name: "f")
        }
    }

    struct HTTPBinPost: Decodable, Sendable {
        let form: [String: String]
        let files: [String: String]
        let headers: [String: String]
    }

    @Test(.enabled(if: TestServers.httpbinAvailable), arguments: TransportUnderTest.all)
    func httpbinSeesTheFieldsAndFilesSent(transport: TransportUnderTest) async throws {
        let base = try #require(TestServers.httpbinURL)
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-multipart-\(UUID().uuidString).txt")
        try Data("file contents é 😀\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var form = MultipartFormData()
        form.append("plain value", name: "field")
        form.append("a+b&c=d é", name: "tricky value")
        form.append("quoted", name: "say \"hi\"")
        form.append("naïve", name: "ünïcødé")
        form.append(Data("in memory".utf8), name: "memo", filename: "résumé \"final\".txt", contentType: "text/plain")
        try form.appendFile(at: file, name: "upload", filename: "from disk.txt", contentType: "text/plain")
        let client = APIClient(baseURL: base, transport: transport.make())
        let post = try await client.send(APIRequest<HTTPBinPost>.post("/post", body: .multipart(form)))
        #expect(post.form["field"] == "plain value")
        #expect(post.form["tricky value"] == "a+b&c=d é")
        #expect(post.form["say \"hi\""] == "quoted", "httpbin saw form \(post.form)")
        #expect(post.form["ünïcødé"] == "naïve")
        #expect(post.files["memo"] == "in memory")
        #expect(post.files["upload"] == "file contents é 😀\n")
    }

    struct UploadReport: Decodable, Sendable {
        let bytes: Int64
        let sha256: String?
        let contentLength: Int64?
    }

    /// Peak resident memory of this process so far, and now, in bytes (Linux `/proc`).
    static func residentMemory() -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int64($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 }
    }

    /// Uploads a 200 MiB file as multipart to the demo server's hashing route and returns how much the
    /// process's resident memory grew at the peak; fails if the upload or its progress is wrong.
    static func uploadTwoHundredMebibytes() async throws -> Int64 {
        let size = 200 * 1024 * 1024
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-200MiB-\(UUID().uuidString).bin")
        _ = FileManager.default.createFile(atPath: file.path(percentEncoded: false), contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let block = Data((0..<(1 << 20)).map { UInt8($0 % 251) })
        for _ in 0..<200 { try handle.write(contentsOf: block) }
        try handle.close()

        var form = MultipartFormData()
        form.append("big", name: "label")
        try form.appendFile(at: file, name: "blob")
        let progress = Mutex<[Int64]>([])
        let client = APIClient(baseURL: try await TestServers.demoURL())  // the default transport streams
        let baseline = residentMemory() ?? 0
        let peak = Atomic<Int64>(baseline)
        let sampler = Task {
            while !Task.isCancelled {
                if let rss = residentMemory() { peak.max(rss, ordering: .relaxed) }
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        let body = RequestBody.multipart(form).reportingProgress { p in
            progress.withLock { $0.append(p.completedBytes) }
        }
        let report = try await client.send(
            APIRequest<UploadReport>.post("/testing/upload", query: ["digest": "none"], body: body))
        sampler.cancel()
        let steps = progress.withLock { $0 }
        guard report.bytes > Int64(size), report.contentLength == report.bytes,
            zip(steps, steps.dropFirst()).allSatisfy({ $0 < $1 }), steps.last == report.bytes
        else { throw UploadMismatch(report: "\(report)", steps: steps.count) }
        return peak.load(ordering: .relaxed) - baseline
    }

    struct UploadMismatch: Error {
        let report: String
        let steps: Int
    }
}
