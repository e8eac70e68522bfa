import Courier
import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// Retries against the demo server's flaky routes, which fail a set number of times per key.
@Suite(.timeLimit(.minutes(1))) struct RetryTests {
    struct Attempts: Decodable, Sendable { let attempts: Int }

    static let quick = RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(100))

    func client(_ policy: RetryPolicy = quick) async throws -> APIClient {
        APIClient(baseURL: try await TestServers.demoURL(), middlewares: [.retry(policy)])
    }

    func key() -> String { "retry-\(UUID().uuidString)" }

    func serverAttempts(_ key: String) async throws -> Int {
        try await APIClient(baseURL: try await TestServers.demoURL())
            .send(APIRequest<Attempts>.get("/testing/flaky/\(key)/attempts")).attempts
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let started = ContinuousClock.now
        let result = try await client().send(
            APIRequest<Attempts>.get("/testing/flaky/\(key())", query: ["failures": 1, "retryAfter": 1]))
        #expect(result.attempts == 2)
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let key = key()
        let started = ContinuousClock.now
        // The date is two seconds ahead, rounded up to a whole second: the wait is two to three seconds.
        let result = try await client().send(
            APIRequest<Attempts>.get(
                "/testing/flaky/\(key)", query: ["failures": 1, "retryAfter": 2, "retryAfterDate": 1]))
        let waited = ContinuousClock.now - started
        #expect(result.attempts == 2)
        #expect(waited >= .milliseconds(1_900), "retried after \(waited), before the date the server named")
        #expect(waited < .seconds(10))
    }

    @Test func postIsNotRetriedUnlessItCarriesAnIdempotencyKey() async throws {
        let plain = key()
        let error = await #expect(throws: APIError.self) {
            try await client().send(APIRequest<Attempts>.post("/testing/flaky/\(plain)", query: ["failures": 1]))
        }
        #expect(error?.status == .serviceUnavailable)
        #expect(try await serverAttempts(plain) == 1)

        let keyed = key()
        let idempotencyKey = try #require(HTTPField.Name("Idempotency-Key"))
        let result = try await client().send(
            APIRequest<Attempts>.post(
                "/testing/flaky/\(keyed)", query: ["failures": 1], headers: [idempotencyKey: "abc-123"]))
        #expect(result.attempts == 2)
    }

    @Test func aStreamedBodyIsNotReplayed() async throws {
        let key = key()
        let stream = HTTPBody(
            AsyncStream { continuation in
                continuation.yield(ArraySlice("streamed".utf8))
                continuation.finish()
            }, length: .unknown)
        let error = await #expect(throws: APIError.self) {
            try await client().send(
                APIRequest<Attempts>.put("/testing/flaky/\(key)", query: ["failures": 1], body: .stream(stream)))
        }
        #expect(error?.status == .serviceUnavailable)
        #expect(try await serverAttempts(key) == 1)
    }

    @Test func theAttemptCapIsRespectedAndReported() async throws {
        let key = key()
        let error = await #expect(throws: APIError.self) {
            try await client().send(APIRequest<Attempts>.get("/testing/flaky/\(key)", query: ["failures": 10]))
        }
        #expect(error?.attempts == 3)
        #expect(error?.description.contains("after 3 attempts") == true)
        #expect(try await serverAttempts(key) == 3)
    }

    @Test func cancellingDuringBackoffEndsPromptly() async throws {
        let client = try await client()
        let task = Task {
            try await client.send(
                APIRequest<Attempts>.get("/testing/flaky/\(key())", query: ["failures": 1, "retryAfter": 20]))
        }
        try await Task.sleep(for: .milliseconds(300))
        let cancelled = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - cancelled < .seconds(5), "waited out the 20 s backoff")
    }

    @Test func aRefusedConnectionIsRetriedThenReported() async throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let client = APIClient(baseURL: base, middlewares: [.retry(Self.quick)])
        let error = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/x")) }
        #expect(error?.kind == .transport)
        #expect(error?.attempts == 3)
    }

    @Test func theDeadlineStopsRetriesThatWouldEndPastIt() async throws {
        var policy = Self.quick
        policy.maxAttempts = 10
        policy.deadline = .milliseconds(500)
        let key = key()
        let started = ContinuousClock.now
        await #expect(throws: APIError.self) {
            try await client(policy).send(
                APIRequest<Attempts>.get("/testing/flaky/\(key)", query: ["failures": 10, "retryAfter": 60]))
        }
        // The server asks for 60 s; anything well under that shows the deadline refused to wait,
        // with room for a loaded CI machine.
        #expect(ContinuousClock.now - started < .seconds(30), "waited for a retry the deadline rules out")
        #expect(try await serverAttempts(key) == 1)
    }

    @Test func transientNetworkErrorsAreRetriedOthersAreNot() async throws {
        let calls = Atomic<Int>(0)
        let flaky = MockTransport { _ in
            if calls.add(1, ordering: .relaxed).newValue == 1 { throw URLError(.networkConnectionLost) }
            return (HTTPResponse(status: .ok), Data("ok".utf8))
        }
        let client = APIClient(baseURL: exampleBaseURL, transport: flaky, middlewares: [.retry(Self.quick)])
        #expect(try await client.send(APIRequest<String>.get("/x")) == "ok")
        #expect(calls.load(ordering: .relaxed) == 2)

        struct Fatal: Error {}
        let fatalCalls = Atomic<Int>(0)
        let fatal = MockTransport { _ in
            fatalCalls.add(1, ordering: .relaxed)
            throw Fatal()
        }
        let failing = APIClient(baseURL: exampleBaseURL, transport: fatal, middlewares: [.retry(Self.quick)])
        await #expect(throws: APIError.self) { try await failing.send(APIRequest<String>.get("/x")) }
        #expect(fatalCalls.load(ordering: .relaxed) == 1)
    }
}
