import Courier
import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Synchronization
import Testing

/// Bugs the spread-out request path let through; each test fails on the code before the one pipeline.
@Suite(.timeLimit(.minutes(1))) struct PipelineRegressionTests {
    /// A body that streams for about five seconds, so the download is cancelled while its file is open.
    struct SlowDownload: Endpoint, CancellableByType {
        typealias Response = Void
        var path: RoutePath { "/drip" }
        var query: Query { ["chunks": 300, "intervalMs": 100, "size": 1_000] }
    }

    @Test(arguments: TransportUnderTest.all)
    func cancelAllReachesADownload(transport: TransportUnderTest) async throws {
        let client = try await transport.demoClient()
        let folder = FileManager.default.temporaryDirectory.appending(path: "courier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appending(path: "drip.bin")
        let started = Mutex(false)
        let download = Task {
            _ = try await client.download(SlowDownload(), to: destination) { _ in started.withLock { $0 = true } }
        }
        // Wait for the first bytes: every transport streams the body.
        try await eventually("the download's first bytes") { started.withLock { $0 } }
        let cancelled = client.cancelAll(SlowDownload.self)
        #expect(cancelled == 1, "cancelAll did not find the download in flight")
        let cancelledAt = ContinuousClock.now
        let error = await #expect(throws: APIError.self) { try await download.value }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - cancelledAt < .seconds(10), "the 30 s download was not cut short")
        #expect(client.cancelAll(SlowDownload.self) == 0, "the finished download is still registered")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.isEmpty, "the cancelled download left \(left)")
    }

    /// An S3-style error document, decoded with the endpoint's XML decoder.
    struct S3Error: Decodable, Sendable {
        let code: String
        let message: String
        let bucketName: String
        enum CodingKeys: String, CodingKey {
            case code = "Code"
            case message = "Message"
            case bucketName = "BucketName"
        }
    }

    struct ListBucket: Endpoint {
        typealias Response = String
        let name: String
        var path: RoutePath { "/testing/xml/buckets/\(name)" }
        var decoder: (any ResponseBodyDecoder)? { BodyFormatTests.XMLReader() }
        var errorBody: (any (Decodable & Sendable).Type)? { S3Error.self }
    }

    @Test(arguments: TransportUnderTest.all)
    func anXMLErrorBodyDecodesThroughTheEndpointsDecoder(transport: TransportUnderTest) async throws {
        // The client's own error body is a JSON type: the endpoint's choice wins.
        let client = try await transport.demoClient {
            $0.errorBody = MessageError.self
        }
        let error = await #expect(throws: APIError.self) { try await client.send(ListBucket(name: "photos")) }
        #expect(error?.kind == .apiError)
        #expect(error?.status == .notFound)
        let body = try #require(error?.errorBody(as: S3Error.self))
        #expect(body.code == "NoSuchBucket")
        #expect(body.bucketName == "photos")
    }

    @Test func anErrorBodyThatDoesNotDecodeKeepsTheReason() async throws {
        struct Strict: Decodable, Sendable { let requestID: String }
        var request = APIRequest<String>.get("/testing/xml/buckets/photos")
        request.decoder = BodyFormatTests.XMLReader()
        request.errorBody = Strict.self
        let client = APIClient(baseURL: try await TestServers.testServerURL())
        let error = await #expect(throws: APIError.self) { try await client.send(request) }
        #expect(error?.kind == .unacceptableStatus)
        #expect(error?.underlyingError is DecodingError, "the decoder's reason was thrown away")
        #expect(error?.description.contains("the body is not a Strict") == true, "\(error?.description ?? "")")
        #expect(error?.bodySnippet?.contains("NoSuchBucket") == true)
    }

    /// A 400 whose body is the client's envelope reporting a failure: the envelope's error is the API error.
    @Test func anEnvelopesErrorOnAnErrorStatusIsTheAPIError() async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL()) { $0.envelope = .successFlag }
        let malformed = APIRequest<String>.post("/envelope/login", body: .text("not json"))
        let error = await #expect(throws: APIError.self) { try await client.send(malformed) }
        #expect(error?.kind == .apiError)
        #expect(error?.status == .badRequest)
        #expect(error?.errorBody(as: SuccessFlagEnvelope.ErrorInfo.self)?.errorCode == 1000)
    }

    @Test(arguments: TransportUnderTest.all)
    func aRefusedConnectionSaysSoInPlainWords(transport: TransportUnderTest) async throws {
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:1")), transport: transport.make())
        let started = ContinuousClock.now
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
        #expect(ContinuousClock.now - started < .seconds(15), "connection attempts were retried")
        #expect(error?.kind == .transport)
        let text = error?.description ?? ""
        #expect(text.components(separatedBy: "connection refused").count == 2, "not said once: \(text)")
        #expect(text.filter { $0 == "(" }.count == text.filter { $0 == ")" }.count, "unbalanced: \(text)")
        #expect(text == "GET http://127.0.0.1:1/x failed — transport failed: connection refused (while sending)")
    }

    /// A middleware that counts the attempts it sees.
    final class AttemptCounter: ClientMiddleware {
        let count = Atomic<Int>(0)
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            count.add(1, ordering: .relaxed)
            return try await next(request, body, baseURL)
        }
    }

    /// As swift-openapi-generator's `Client` drives it: openapi-runtime wraps every transport and middleware
    /// error in `ClientError` before the next middleware sees it.
    @Test func retryUnderAGeneratedClientRetriesARefusedConnection() async throws {
        let counter = AttemptCounter()
        let client = UniversalClient(
            serverURL: try #require(URL(string: "http://127.0.0.1:1")), transport: DefaultTransport.make(),
            middlewares: [.retry(RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1))), counter])
        await #expect(throws: ClientError.self) {
            try await client.send(
                input: (), forOperation: "ping",
                serializer: { _ in (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/ping"), nil) },
                deserializer: { _, _ in () })
        }
        #expect(counter.count.load(ordering: .relaxed) == 3)
    }
}

#if canImport(AsyncHTTPClient)
    /// `HTTPClientTransport()` behaves like the default transport: a refused connection fails at once.
    @Suite(.timeLimit(.minutes(1))) struct HTTPClientTransportDefaultsTests {
        @Test func theNoArgumentTransportDoesNotRetryConnectionsForAMinute() async throws {
            let client = APIClient(
                baseURL: try #require(URL(string: "http://127.0.0.1:1")), transport: HTTPClientTransport())
            let started = ContinuousClock.now
            let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
            #expect(error?.kind == .transport)
            #expect(ContinuousClock.now - started < .seconds(15), "connection attempts were retried")
        }
    }
#endif

/// A middleware that begins to read the response body and hands the same body back.
struct PeekingMiddleware: ClientMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        var chunks = responseBody?.makeAsyncIterator()
        _ = try await chunks?.next()
        return (response, responseBody)
    }
}

extension PipelineRegressionTests {
    /// A body handed back to Courier after a middleware began to read it is never read again from the
    /// transport's own buffers (AsyncHTTPClient's stream allows one reader and would end the process): the
    /// second read is refused with an error. A body handed back unread is read as usual.
    @Test(arguments: TransportUnderTest.all)
    func aBodyAMiddlewareBeganToReadIsNotReadAgain(transport: TransportUnderTest) async throws {
        let peeking = try await transport.demoClient(middlewares: [PeekingMiddleware()])
        let error = await #expect(throws: APIError.self) {
            try await peeking.send(APIRequest<Data>.get("/bytes/100000"))
        }
        #expect(error?.phase == .receiving, "\(String(describing: error))")
        let passing = try await transport.demoClient(middlewares: [.retry()])
        #expect(try await passing.send(APIRequest<Data>.get("/bytes/100000")).count == 100_000)
    }
}
