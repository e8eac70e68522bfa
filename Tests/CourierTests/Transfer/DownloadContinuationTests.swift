import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import Courier

/// How `download` continues a transfer that ``StreamingURLSessionTransport`` stopped with ``ReadAheadExceeded``
/// (URLSession on Linux can't pause one), over a scripted transport: which requests may continue, how far the
/// loop goes, and that no partial file is left where the caller can't reach it.
@Suite struct DownloadContinuationTests {
    /// One answer of the script: a head, the body's bytes, and how the body ends (`nil`: cleanly).
    struct Answer: Sendable {
        var status: HTTPResponse.Status = .ok
        var fields: HTTPFields = [.eTag: "\"v1\"", .acceptRanges: "bytes"]
        var bytes: [UInt8]
        var end: (any Error)? = ReadAheadExceeded(limit: 8)
    }

    /// Answers request number n with `script(n, request)`; throws when the script returns nil.
    final class ScriptedTransport: ClientTransport, Sendable {
        let script: @Sendable (Int, HTTPRequest) -> Answer?
        let sent = Mutex<[HTTPRequest]>([])

        init(script: @escaping @Sendable (Int, HTTPRequest) -> Answer?) { self.script = script }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
            -> (HTTPResponse, HTTPBody?)
        {
            let number = sent.withLock {
                $0.append(request)
                return $0.count
            }
            guard let answer = script(number, request) else { throw URLError(.networkConnectionLost) }
            var fields = answer.fields
            if answer.end == nil { fields[.contentLength] = String(answer.bytes.count) }
            let (stream, continuation) = AsyncThrowingStream<HTTPBody.ByteChunk, any Error>.makeStream()
            continuation.yield(ArraySlice(answer.bytes))
            continuation.finish(throwing: answer.end)
            return (HTTPResponse(status: answer.status, headerFields: fields), HTTPBody(stream, length: .unknown))
        }
    }

    /// The resource: 300 bytes, byte i being `i % 251`.
    static let resource = (0..<300).map { UInt8($0 % 251) }

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "courier-continue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path(percentEncoded: false))) ?? []).sorted()
    }

    func client(_ transport: ScriptedTransport) throws -> APIClient {
        APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9/api")), transport: transport)
    }

    @Test func aStoppedTransferContinuesWithARangeUntilTheWholeFileIsThere() async throws {
        let transport = ScriptedTransport { number, request in
            switch number {
            case 1: return Answer(bytes: Array(Self.resource[0..<100]))
            case 2:
                guard request.headerFields[.range] == "bytes=100-", request.headerFields[.ifRange] == "\"v1\""
                else { return nil }
                return Answer(
                    status: .partialContent, fields: [.eTag: "\"v1\"", .contentRange: "bytes 100-299/300"],
                    bytes: Array(Self.resource[100...]), end: nil)
            default: return nil
            }
        }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appending(path: "file.bin")
        let response = try await client(transport).download(APIRequest<Void>.get("/file"), to: destination)
        #expect(response.status == .partialContent)
        #expect(try Data(contentsOf: destination) == Data(Self.resource))
        #expect(contents(of: directory) == ["file.bin"])
    }

    @Test func aPostIsNotSentAgainButItsErrorCarriesTheResumeData() async throws {
        let transport = ScriptedTransport { _, _ in Answer(bytes: Array(Self.resource[0..<100])) }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: APIError.self) {
            try await client(transport).download(APIRequest<Void>.post("/export"), to: directory.appending(path: "f"))
        }
        #expect(transport.sent.withLock { $0.count } == 1)
        #expect(error?.underlyingError is ReadAheadExceeded)
        #expect(error?.resumeData?.bytesReceived == 100)
        error?.resumeData?.discard()
        #expect(contents(of: directory).isEmpty)
    }

    @Test func aRequestedContentCodingIsNeitherContinuedNorResumable() async throws {
        let transport = ScriptedTransport { _, _ in Answer(bytes: Array(Self.resource[0..<100])) }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = APIRequest<Void>.get("/file", headers: [.acceptEncoding: "gzip"])
        let error = await #expect(throws: APIError.self) {
            try await client(transport).download(request, to: directory.appending(path: "f"))
        }
        #expect(transport.sent.withLock { $0.count } == 1)
        #expect(error?.resumeData == nil)
        #expect(contents(of: directory).isEmpty)
    }

    @Test func aServerThatIgnoresRangesEndsTheLoopAfterThreeFruitlessContinuations() async throws {
        // Every answer is a 200 from byte 0 that stops after 100 bytes (or 50 on even attempts), so no
        // continuation gets further than the first.
        let transport = ScriptedTransport { number, _ in
            Answer(bytes: Array(Self.resource[0..<(number % 2 == 0 ? 50 : 100)]))
        }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: APIError.self) {
            try await client(transport).download(APIRequest<Void>.get("/file"), to: directory.appending(path: "f"))
        }
        #expect(transport.sent.withLock { $0.count } == 1 + APIClient.fruitlessContinuations)
        let resume = try #require(error?.resumeData)
        #expect(contents(of: directory) == [resume.partialFile.lastPathComponent])
    }

    @Test func aRangeThatStartsElsewhereFailsAndLeavesNoFile() async throws {
        let transport = ScriptedTransport { number, _ in
            number == 1
                ? Answer(bytes: Array(Self.resource[0..<100]))
                : Answer(
                    status: .partialContent, fields: [.eTag: "\"v1\"", .contentRange: "bytes 0-299/300"],
                    bytes: Self.resource, end: nil)
        }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: APIError.self) {
            try await client(transport).download(APIRequest<Void>.get("/file"), to: directory.appending(path: "f"))
        }
        #expect(error?.kind == .transport)
        #expect(error?.message?.contains("Content-Range (bytes 0-299/300) does not start at byte 100") == true)
        #expect(error?.url == "http://127.0.0.1:9/api/file")
        #expect(contents(of: directory).isEmpty)
    }

    @Test func aContinuationThatFailsBeforeItsHeadHandsOnThePartialFile() async throws {
        let transport = ScriptedTransport { number, _ in
            number == 1 ? Answer(bytes: Array(Self.resource[0..<100])) : nil
        }
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = await #expect(throws: APIError.self) {
            try await client(transport).download(APIRequest<Void>.get("/file"), to: directory.appending(path: "f"))
        }
        #expect(error?.kind == .transport)
        let resume = try #require(error?.resumeData)
        #expect(resume.bytesReceived == 100)
        #expect(try Data(contentsOf: resume.partialFile) == Data(Self.resource[0..<100]))
        #expect(contents(of: directory) == [resume.partialFile.lastPathComponent])
    }

    @Test(arguments: [
        ("bytes 100-299/300", ContentRange?.some(.init(first: 100, last: 299, completeLength: 300))),
        ("bytes 0-0/*", .some(.init(first: 0, last: 0, completeLength: nil))),
        ("bytes 5-4/300", nil), ("bytes 0-300/300", nil), ("bytes */300", nil), ("items 0-1/2", nil),
        ("bytes 1-2", nil), ("bytes -1-2/3", nil),
    ])
    func contentRangeParsing(value: String, expected: ContentRange?) {
        #expect(ContentRange(value) == expected)
    }
}
