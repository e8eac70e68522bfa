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

    func client(_ policy: RetryPolicy = quick, clock: any Clock<Duration> = ContinuousClock()) async throws
        -> APIClient
    {
        APIClient(baseURL: try await TestServers.testServerURL(), middlewares: [.retry(policy)]) { $0.clock = clock }
    }

    func key() -> String { "retry-\(UUID().uuidString)" }

    func serverAttempts(_ key: String) async throws -> Int {
        try await APIClient(baseURL: try await TestServers.testServerURL())
            .send(APIRequest<Attempts>.get("/testing/flaky/\(key)/attempts")).attempts
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let clock = ManualClock()
        let client = try await client(clock: clock)
        let call = Task {
            try await client.send(
                APIRequest<Attempts>.get("/testing/flaky/\(key())", query: ["failures": 1, "retryAfter": 1]))
        }
        await clock.waitForSleepers()
        #expect(clock.earliestDeadline == ManualClock.Instant(offset: .seconds(1)))
        clock.advance(by: .milliseconds(999))
        #expect(clock.sleeperCount == 1, "retried before the second the server asked for")
        clock.advance(by: .milliseconds(1))
        #expect(try await call.value.attempts == 2)
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let clock = ManualClock()
        let client = try await client(clock: clock)
        // The date is two seconds ahead, rounded up to a whole second: the wait is two to three seconds.
        let call = Task {
            try await client.send(
                APIRequest<Attempts>.get(
                    "/testing/flaky/\(key())", query: ["failures": 1, "retryAfter": 2, "retryAfterDate": 1]))
        }
        await clock.waitForSleepers()
        let wait = try #require(clock.earliestDeadline).offset
        // The date is read against the wall clock (it is the server's), so the wait is what is left of its
        // 2-3 s when the answer arrives.
        #expect(wait > .zero && wait <= .seconds(3), "waits \(wait) for a date 2-3 s ahead")
        clock.advance(by: wait)
        #expect(try await call.value.attempts == 2)
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
        let clock = ManualClock()
        let client = try await client(clock: clock)
        let task = Task {
            try await client.send(
                APIRequest<Attempts>.get("/testing/flaky/\(key())", query: ["failures": 1, "retryAfter": 20]))
        }
        await clock.waitForSleepers()  // in the 20 s backoff, which this clock never lets pass
        let cancelled = ContinuousClock.now
        task.cancel()
        let error = await #expect(throws: APIError.self) { try await task.value }
        #expect(error?.kind == .cancelled)
        #expect(ContinuousClock.now - cancelled < .seconds(10), "the cancelled backoff did not end at once")
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
        let clock = ManualClock()
        // The server asks for 60 s: the call ends at once, on a clock that never moves, or not at all.
        await #expect(throws: APIError.self) {
            try await client(policy, clock: clock).send(
                APIRequest<Attempts>.get("/testing/flaky/\(key)", query: ["failures": 10, "retryAfter": 60]))
        }
        #expect(clock.sleeperCount == 0)
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

    @Test func anAttemptPastItsTimeLimitIsRetriedAndTheCallsLimitIsNot() async throws {
        let calls = Atomic<Int>(0)
        let mock = MockTransport { _ in
            if calls.add(1, ordering: .relaxed).newValue == 1 { try await hangUntilCancelled() }
            return (HTTPResponse(status: .ok), Data("ok".utf8))
        }
        let clock = ManualClock()
        let client = APIClient(baseURL: exampleBaseURL, transport: mock, middlewares: [.retry(Self.quick)]) {
            $0.clock = clock
            $0.attemptTimeout = .seconds(5)
        }
        let call = Task { try await client.send(APIRequest<String>.get("/x")) }
        await clock.waitForSleepers()  // the first attempt's time limit
        #expect(clock.earliestDeadline == ManualClock.Instant(offset: .seconds(5)))
        clock.advance(by: .seconds(5))
        await clock.waitForSleepers()  // the retry's backoff
        clock.advance(by: .seconds(1))
        #expect(try await call.value == "ok")
        #expect(calls.load(ordering: .relaxed) == 2)

        // The whole call's limit ends it, and is not retried.
        let hangingCalls = Atomic<Int>(0)
        let hanging = MockTransport { _ in
            hangingCalls.add(1, ordering: .relaxed)
            try await hangUntilCancelled()
        }
        let limited = APIClient(baseURL: exampleBaseURL, transport: hanging, middlewares: [.retry(Self.quick)]) {
            $0.clock = clock
            $0.timeout = .seconds(8)
        }
        let ended = Task { try await limited.send(APIRequest<String>.get("/x")) }
        await clock.waitForSleepers()  // the call's time limit
        try await eventually("the request at the transport") { hangingCalls.load(ordering: .relaxed) == 1 }
        clock.advance(by: .seconds(8))
        let error = await #expect(throws: APIError.self) { try await ended.value }
        #expect(error?.kind == .timedOut)
        #expect(error?.description.contains("no complete response within 8") == true, "\(String(describing: error))")
        #expect(hangingCalls.load(ordering: .relaxed) == 1, "the call's time limit was retried")
    }
}
