import CoreMetrics
import Courier
import CourierTesting
import Foundation
import HTTPTypes
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

@testable import Courier

/// Metrics (swift-metrics' test kit) and spans (swift-distributed-tracing's in-memory tracer) for each way a
/// call can end, end to end against the demo server. Each test binds its own factory and tracer to its task,
/// so tests run in parallel without sharing a global backend.
@Suite(.timeLimit(.minutes(1)))
struct ObservabilityTests {
    struct Echo: Decodable, Sendable {
        let path: String
        let headers: [[String]]
    }

    /// `body` with a fresh metrics factory and tracer bound to the task.
    func observing(_ body: () async throws -> Void) async throws -> (TestMetrics, InMemoryTracer) {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        try await withMetricsFactory(metrics) {
            try await withTracer(tracer) { try await body() }
        }
        return (metrics, tracer)
    }

    func duration(_ metrics: TestMetrics, operation: String, outcome: String, status: String) -> [Int64] {
        metrics.timers(
            label: "courier.client.request.duration",
            dimensions: [("operation", operation), ("method", "GET"), ("outcome", outcome), ("status", status)]
        ).flatMap(\.values)
    }

    /// The call span (the one without a parent among those finished) and its children.
    func spans(_ tracer: InMemoryTracer) throws -> (call: FinishedInMemorySpan, attempts: [FinishedInMemorySpan]) {
        let finished = tracer.finishedSpans
        let calls = finished.filter { span in !finished.contains { $0.spanID == span.parentSpanID } }
        #expect(calls.count == 1, "\(finished.map(\.operationName))")
        let call = try #require(calls.first)
        return (call, finished.filter { $0.parentSpanID == call.spanID })
    }

    @Test func aSuccessIsTimedAndTracedWithItsTemplateAndTheContextReachesTheServer() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let id = 42
        var echo: Echo?
        let (metrics, tracer) = try await observing {
            echo = try await client.send(APIRequest<Echo>.get("/echo/items/\(id)", query: ["key": "secret-key"]))
        }
        #expect(duration(metrics, operation: "GET /echo/items/{}", outcome: "success", status: "200").count == 1)
        let inFlight = try metrics.expectMeter(
            "courier.client.requests.in_flight", [("operation", "GET /echo/items/{}")])
        #expect(inFlight.values == [1, 0])
        let size = try metrics.expectRecorder(
            "courier.client.response.body.size", [("operation", "GET /echo/items/{}")])
        #expect((size.lastValue ?? 0) > 100)
        #expect(metrics.counters.isEmpty, "no error, retry or redirect")

        let (call, attempts) = try spans(tracer)
        #expect(call.operationName == "GET /echo/items/{}")
        #expect(call.kind == .client)
        #expect(call.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(call.attributes["url.template"]?.toSpanAttribute() == "/echo/items/{}")
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(call.attributes["server.address"]?.toSpanAttribute() == "127.0.0.1")
        let url = "\(call.attributes["url.full"]?.toSpanAttribute() ?? "")"
        #expect(url.contains("/echo/items/42") && !url.contains("secret-key"), "\(url)")
        #expect(call.status?.code != .error)
        #expect(attempts.count == 1)
        #expect(attempts.first?.attributes["http.request.resend_count"] == nil)
        // The attempt's context went out with the request.
        let sent = Dictionary(
            (echo?.headers ?? []).compactMap { $0.count == 2 ? ($0[0].lowercased(), $0[1]) : nil },
            uniquingKeysWith: { first, _ in first })
        #expect(sent[InMemoryTracer.spanIDKey] == attempts.first?.spanID)
        #expect(sent[InMemoryTracer.traceIDKey] == call.traceID)
    }

    @Test func a404WithAnErrorBodyIsAnAPIErrorInBoth() async throws {
        struct Message: Decodable, Sendable { let message: String }
        let client = try await TransportUnderTest.httpClient.demoClient { $0.errorBody = Message.self }
        let (metrics, tracer) = try await observing {
            _ = await #expect(throws: APIError.self) { try await client.send(APIRequest<Echo>.get("/users/nobody")) }
        }
        #expect(duration(metrics, operation: "GET /users/nobody", outcome: "apiError", status: "404").count == 1)
        #expect(
            metrics.counterTotal(
                label: "courier.client.errors", dimensions: [("operation", "GET /users/nobody"), ("kind", "apiError")])
                == 1)
        let (call, _) = try spans(tracer)
        #expect(call.attributes["error.type"]?.toSpanAttribute() == "404")
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 404)
        #expect(call.status?.code == .error)
        #expect(call.errors.count == 1)
    }

    @Test func aRetried503CountsTheRetryAndEachAttemptIsASpan() async throws {
        let retry = RetryMiddleware(policy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(10), jitter: false))
        let client = try await TransportUnderTest.httpClient.demoClient(middlewares: [retry])
        let key = "observed-\(UUID().uuidString.prefix(8))"
        let (metrics, tracer) = try await observing {
            _ = try await client.send(APIRequest<Data>.get("/testing/flaky/\(key)", query: ["failures": 1]))
        }
        let operation = "GET /testing/flaky/{}"
        #expect(duration(metrics, operation: operation, outcome: "success", status: "200").count == 1)
        #expect(metrics.counterTotal(label: "courier.client.retries", dimensions: [("operation", operation)]) == 1)
        let (call, attempts) = try spans(tracer)
        #expect(call.attributes["courier.retry_count"]?.toSpanAttribute() == 1)
        let ordered = attempts.sorted {
            ($0.attributes["http.request.resend_count"]?.toSpanAttribute() == nil ? 0 : 1)
                < ($1.attributes["http.request.resend_count"]?.toSpanAttribute() == nil ? 0 : 1)
        }
        #expect(ordered.map { $0.attributes["http.response.status_code"]?.toSpanAttribute() } == [503, 200])
        #expect(ordered.last?.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
        #expect(ordered.first?.status?.code == .error)
    }

    @Test func redirectsAreCountedAndEachHopIsASpan() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let (metrics, tracer) = try await observing {
            _ = try await client.send(APIRequest<Data>.get("/redirect/count/2"))
        }
        let operation = "GET /redirect/count/2"
        #expect(metrics.counterTotal(label: "courier.client.redirects", dimensions: [("operation", operation)]) == 2)
        let (call, attempts) = try spans(tracer)
        #expect(attempts.count == 3)
        let resends = attempts.compactMap { $0.attributes["http.request.resend_count"]?.toSpanAttribute() }
        #expect(resends.count == 2 && resends.contains(1) && resends.contains(2), "\(resends)")
        #expect(call.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
    }

    @Test func aTimeoutEndsTheSpanOnceAsTimedOut() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient { $0.timeout = .milliseconds(200) }
        let (metrics, tracer) = try await observing {
            _ = await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Data>.get("/slow", query: ["ms": 5000]))
            }
        }
        #expect(duration(metrics, operation: "GET /slow", outcome: "timedOut", status: "none").count == 1)
        #expect(
            metrics.counterTotal(
                label: "courier.client.errors", dimensions: [("operation", "GET /slow"), ("kind", "timedOut")]) == 1)
        let (call, attempts) = try spans(tracer)
        #expect(call.attributes["error.type"]?.toSpanAttribute() == "timedOut")
        #expect(attempts.map { $0.attributes["error.type"]?.toSpanAttribute() } == ["timedOut"])
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aCancelledCallEndsItsSpansAsCancelled() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let (metrics, tracer) = try await observing {
            let slow = TaggedRequest.slow(milliseconds: 30_000)
            let task = Task { try await client.send(slow.request) }
            try await slow.waitForArrivals(at: client)
            task.cancel()
            _ = await task.result
        }
        #expect(duration(metrics, operation: "GET /slow", outcome: "cancelled", status: "none").count == 1)
        let (call, attempts) = try spans(tracer)
        #expect(call.attributes["error.type"]?.toSpanAttribute() == "cancelled")
        #expect(attempts.map { $0.attributes["error.type"]?.toSpanAttribute() } == ["cancelled"])
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aStreamIsObservedUntilItEndsOrIsDropped() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient()
        let key = "observed-\(UUID().uuidString.prefix(8))"
        let (metrics, tracer) = try await observing {
            for try await _ in client.events(APIRequest<Void>.get("/testing/events/\(key)", query: ["count": 3])) {}
            var iterator = client.records(
                APIRequest<EventStreamTests.Tick>.get("/testing/records", query: ["count": 1000])
            )
            .makeAsyncIterator()
            _ = try await iterator.next()
        }
        // The event stream ended; the record stream's iterator was dropped after one record.
        #expect(duration(metrics, operation: "GET /testing/events/{}", outcome: "success", status: "200").count == 1)
        #expect(duration(metrics, operation: "GET /testing/records", outcome: "success", status: "200").count == 1)
        #expect(tracer.finishedSpans.count == 4)
        #expect(tracer.activeSpans.isEmpty)
    }

    @Test func aRevalidatedCacheHitAndCoalescedRequestsSaySo() async throws {
        let client = try await TransportUnderTest.httpClient.demoClient {
            $0.cache = HTTPCache()
            $0.coalescesRequests = true
        }
        let key = "observed-\(UUID().uuidString.prefix(8))"
        let resource = APIRequest<Data>.get("/testing/cache/\(key)")
        let (_, tracer) = try await observing {
            _ = try await client.send(resource)
            _ = try await client.send(resource)  // revalidated with a 304
        }
        let calls = tracer.finishedSpans.filter { $0.operationName == "GET /testing/cache/{}" }
        let statuses = calls.compactMap { $0.attributes["courier.cache_status"]?.toSpanAttribute() }
        #expect(statuses.count == 2 && statuses.contains("network") && statuses.contains("revalidated"), "\(statuses)")

        let burst = APIRequest<Data>.get("/testing/cache/\(key)-burst", query: ["delay": 200])
        let (_, shared) = try await observing {
            async let first = client.send(burst)
            async let second = client.send(burst)
            _ = try await (first, second)
        }
        let coalesced = shared.finishedSpans.filter { $0.attributes["courier.coalesced"]?.toSpanAttribute() == true }
        #expect(coalesced.count == 2, "\(shared.finishedSpans.map(\.operationName))")
    }

    @Test func aLinkedPageKeepsTheBoundedOperationOfTheRequestItContinues() throws {
        let login = "octocat"
        let base = APIRequest<Data>.get("/users/\(login)/repos")
        let origin = try #require(URL(string: "http://127.0.0.1:8080"))
        let next = try #require(URL(string: "http://127.0.0.1:8080/users/octocat/repos?page=2"))
        let page = LinkedPage(base: base, following: next, under: origin)
        #expect(CallObserver.operation(of: page) == "GET /users/{}/repos")
        #expect(page.pathTemplate == "/users/{}/repos")
    }

    /// OpenTelemetry's spellings: a method outside HTTP's is `_OTHER` (span `HTTP …`, the method kept in
    /// `http.request.method_original`, and the metrics' dimension bounded), a secret query value is
    /// `REDACTED` (a base URL with credentials is refused); a download reports the bytes it received.
    @Test func otherMethodsRedactedURLsAndDownloadSizesAreSpelledAsOpenTelemetrySays() async throws {
        let mock = MockTransport { _ in (HTTPResponse(status: .ok), Data(count: 1_234)) }
        let base = try #require(URL(string: "https://api.example.com"))
        let client = APIClient(baseURL: base, transport: mock)
        let destination = FileManager.default.temporaryDirectory.appending(path: "observed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }
        let (metrics, tracer) = try await observing {
            _ = try await client.send(
                APIRequest<Data>(
                    try #require(HTTPRequest.Method("PURGE")), "/cache/items/\(7)", query: ["api_key": "k-123"]))
            _ = try await client.download(APIRequest<Void>.get("/exports/report.csv"), to: destination)
        }
        let finished = tracer.finishedSpans
        let purge = try #require(finished.first { $0.operationName == "HTTP /cache/items/{}" })
        #expect(purge.attributes["http.request.method"]?.toSpanAttribute() == "_OTHER")
        #expect(purge.attributes["http.request.method_original"]?.toSpanAttribute() == "PURGE")
        #expect(
            purge.attributes["url.full"]?.toSpanAttribute()
                == "https://api.example.com/cache/items/7?api_key=REDACTED")
        let attempt = try #require(finished.first { $0.parentSpanID == purge.spanID })
        #expect(attempt.operationName == "HTTP")
        #expect(attempt.attributes["http.request.method_original"]?.toSpanAttribute() == "PURGE")
        #expect(
            metrics.timers(
                label: "courier.client.request.duration",
                dimensions: [
                    ("operation", "PURGE /cache/items/{}"), ("method", "_OTHER"), ("outcome", "success"),
                    ("status", "200"),
                ]
            ).count == 1)
        let size = try metrics.expectRecorder(
            "courier.client.response.body.size", [("operation", "GET /exports/report.csv")])
        #expect(size.lastValue == 1_234)
    }

    /// A POST answered by `303` is followed by a GET: the call says POST, each request span its own method.
    @Test func aRedirectThatChangesTheMethodIsSeenOnEachRequestSpan() async throws {
        let mock = MockTransport { request in
            request.path == "/submit"
                ? (HTTPResponse(status: .seeOther, headerFields: [.location: "/result"]), Data())
                : (HTTPResponse(status: .ok), Data("done".utf8))
        }
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock)
        let (_, tracer) = try await observing {
            _ = try await client.send(APIRequest<Data>.post("/submit", body: .json(["a": 1])))
        }
        let (call, requests) = try spans(tracer)
        #expect(call.attributes["http.request.method"]?.toSpanAttribute() == "POST")
        #expect(Set(requests.map(\.operationName)) == ["POST", "GET"])
        for span in requests {
            #expect(span.attributes["http.request.method"]?.toSpanAttribute() == .string(span.operationName))
        }
        #expect(requests.allSatisfy { $0.attributes["http.request.method_original"] == nil })
    }

    @Test func nothingIsObservedWithoutABackend() async throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/")
        let client = APIClient(baseURL: URL(filePath: "/"))
        #expect(CallObserver.start(route: APIRequest<Data>.get("/"), request: request, client: client) == nil)
        let observer = withMetricsFactory(TestMetrics()) {
            CallObserver.start(route: APIRequest<Data>.get("/"), request: request, client: client)
        }
        #expect(observer != nil)
        observer?.finish(nil)
    }
}
