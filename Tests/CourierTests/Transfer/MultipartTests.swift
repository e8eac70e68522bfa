import Courier
import CourierTesting
import Foundation
import HTTPTypes
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

    @Test func anUnreadableFileIsAnErrorSayingWhy() throws {
        var form = MultipartFormData()
        let missing = URL(filePath: "/nonexistent/\(UUID().uuidString)")
        let error = #expect(throws: CocoaError.self) { try form.appendFile(at: missing, name: "f") }
        #expect(error?.code == .fileReadNoSuchFile)
        #expect(error?.localizedDescription.contains(missing.path(percentEncoded: false)) == true)
        let folder = #expect(throws: CocoaError.self) {
            try form.appendFile(at: FileManager.default.temporaryDirectory, name: "f")
        }
        #expect(folder?.code == .fileReadUnknown, "a folder is not a regular file")
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
}
