import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// A client generated from `openapi.yaml` by swift-openapi-generator's build plugin, with Courier's middleware.
@Suite(.timeLimit(.minutes(1))) struct GeneratedClientTests {
    /// Counts every attempt that reaches it (it sits inside the retry middleware).
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

    static let quickRetry = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(5))

    /// openapi-runtime hands the retry middleware a `ClientError` wrapping the transport's error.
    @Test func aRefusedConnectionIsRetried() async throws {
        let counter = AttemptCounter()
        let client = Client(
            serverURL: try #require(URL(string: "http://127.0.0.1:1")), transport: DefaultTransport.make(),
            middlewares: [.retry(Self.quickRetry), counter])
        let error = await #expect(throws: ClientError.self) { _ = try await client.getUUID() }
        #expect(counter.count.load(ordering: .relaxed) == 3)
        #expect(error?.operationID == "getUUID")
        // Courier's transport says what happened itself: the generated client shows it as it is.
        let underlying = error?.underlyingError as? APIError
        #expect(underlying?.kind == .transport)
        #expect(
            underlying?.description
                == "GET http://127.0.0.1:1/uuid failed — transport failed: connection refused (while sending)")
    }

    /// A transient status is retried, and a success decodes into the generated types.
    @Test(.enabled(if: httpbinURL != nil, "needs httpbin: COURIER_HTTPBIN_URL (set by scripts/test)"))
    func aGeneratedClientWorksAgainstHTTPBinWithCourierMiddleware() async throws {
        let url = try #require(httpbinURL)
        let counter = AttemptCounter()
        let client = Client(
            serverURL: url, transport: DefaultTransport.make(),
            middlewares: [.retry(Self.quickRetry), counter, .timeout(.seconds(10))])
        let uuid = try await client.getUUID().ok.body.json.uuid
        #expect(UUID(uuidString: uuid) != nil)
        #expect(counter.count.load(ordering: .relaxed) == 1)

        let unavailable = try await client.getStatus(path: .init(code: 503))
        guard case .default(let status, _) = unavailable else {
            Issue.record("expected the default response for a 503, got \(unavailable)")
            return
        }
        #expect(status == 503)
        #expect(counter.count.load(ordering: .relaxed) == 1 + 3, "a 503 is retried up to the attempt cap")
    }
}

/// httpbin under gunicorn, started by `scripts/test`.
let httpbinURL = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"].flatMap { URL(string: $0) }
