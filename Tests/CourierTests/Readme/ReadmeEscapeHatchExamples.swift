import Courier
import Foundation
import Testing

/// The escape hatches (raw paths, segments, absolute URLs, a client-wide body decoder, the raw error body)
/// that DescribingEndpoints.md and HandlingErrors.md show from the `escape hatches` DOCC region, compiled, and
/// run against the demo server's `/echo` under a path prefix.
enum ReadmeEscapeHatchExamples {
    /// Stands in for an XML decoder such as XMLCoder's.
    struct MyXMLDecoder: ResponseBodyDecoder {
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try JSONDecoder().decode(type, from: data)
        }
    }

    // BEGIN DOCC: escape hatches
    /// An OCI registry manifest: repository names contain "/" ("library/swift"), kept as written by `raw:`.
    struct GetManifest: Endpoint {
        typealias Response = Data
        let repository: String
        let reference: String
        var path: RoutePath { "/v2/\(raw: repository)/manifests/\(reference)" }
    }

    /// An S3 object: every segment of the key percent-encoded on its own.
    struct GetObject: Endpoint {
        typealias Response = Data
        let bucket: String
        let key: [String]  // ["photos", "2024", "a b.jpg"] → /bucket/photos/2024/a%20b.jpg
        var path: RoutePath { RoutePath(segments: [bucket] + key) }
    }

    static func storageClient(baseURL: URL) -> APIClient {
        APIClient(baseURL: baseURL) {
            $0.allowedOrigins = ["https://uploads.example.com"]  // absolute URLs and Link pages may go there
            $0.bodyDecoder = MyXMLDecoder()  // a ResponseBodyDecoder of yours, for endpoints naming none
        }
    }

    /// An upload URL the API handed out (a `Location` header, say), sent with the client's middleware.
    static func upload(_ data: Data, to uploadURL: URL, client: APIClient) async throws {
        do {
            try await client.send(APIRequest<Void>.put(.url(uploadURL), body: .data(data)))
        } catch {
            let body = error.body.map { String(decoding: $0, as: UTF8.self) }  // as it came, secrets redacted
            print(error, body ?? "")
            throw error
        }
    }
    // END DOCC: escape hatches
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeEscapeHatchTests {
    struct Echo: Decodable { let path: String }

    @Test func rawPathsSegmentsAndAbsoluteURLsReachTheServerAsWritten() async throws {
        let demo = try await TestServers.testServerURL()
        let client = ReadmeEscapeHatchExamples.storageClient(baseURL: demo.appending(path: "echo"))
        let manifest = try await client.send(
            ReadmeEscapeHatchExamples.GetManifest(repository: "library/swift", reference: "6.0 slim"))
        #expect(
            try JSONDecoder().decode(Echo.self, from: manifest).path == "/echo/v2/library/swift/manifests/6.0%20slim")
        let object = try await client.send(
            ReadmeEscapeHatchExamples.GetObject(bucket: "media", key: ["photos", "2024", "a b.jpg"]))
        #expect(try JSONDecoder().decode(Echo.self, from: object).path == "/echo/media/photos/2024/a%20b.jpg")
        try await ReadmeEscapeHatchExamples.upload(
            Data("x".utf8), to: demo.appending(path: "echo/uploads/1"), client: client)
        let elsewhere = try #require(URL(string: "https://elsewhere.example/uploads/1"))
        let refused = await #expect(throws: APIError.self) {
            try await ReadmeEscapeHatchExamples.upload(Data("x".utf8), to: elsewhere, client: client)
        }
        #expect(refused?.kind == .invalidRequest)
    }
}
