import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// Waits for a condition another task, thread or process makes true (a server counting a request, a
/// completion handler on its queue), checking it often at first, then every 50 ms (a condition read from a
/// server costs a request, and the whole suite polls at once on 2 cores). Fails the test, naming `what`,
/// when it does not hold within `limit`: the bound names the hang it guards against.
///
/// This is the suite's one sleep for waiting on an event it can only observe by looking: it is real time on
/// purpose, since what it waits for runs on the real clock (the network, another thread). Waits on Courier's
/// own timers use a `ManualClock` instead.
func eventually(
    _ what: String, within limit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    var pause = Duration.milliseconds(1)
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("\(what) did not happen within \(limit)", sourceLocation: sourceLocation)
            throw WaitTimedOut()
        }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
}

/// ``eventually(_:within:sourceLocation:_:)`` gave up.
struct WaitTimedOut: Error {}

/// Suspends until the calling task is cancelled, then throws `CancellationError`: a transport or server
/// stand-in that never answers, without a timer.
func hangUntilCancelled() async throws -> Never {
    let waiter = Mutex<(continuation: CheckedContinuation<Void, Never>?, cancelled: Bool)>((nil, false))
    await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
            let cancelled = waiter.withLock { state in
                state.continuation = continuation
                return state.cancelled
            }
            if cancelled { continuation.resume() }
        }
    } onCancel: {
        let continuation = waiter.withLock { state in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
    throw CancellationError()
}

/// The demo server's `/slow` route, tagged so that a test can wait until its request is at the server.
struct SlowRequest {
    let tag = "slow-\(UUID().uuidString.prefix(8))"
    let milliseconds: Int

    /// `GET /slow` waiting `milliseconds`, counted under the tag.
    var request: APIRequest<Data> { APIRequest<Data>.get("/slow", query: ["ms": milliseconds, "tag": tag]) }

    /// How many of these requests the server has seen arrive.
    func arrivals(at client: APIClient) async throws -> Int {
        struct Arrivals: Decodable { let arrived: Int }
        // Unobserved: a test of metrics and traces counts only its own calls.
        return try await APIClient(baseURL: client.baseURL) { $0.reportsMetricsAndTraces = false }
            .send(APIRequest<Arrivals>.get("/slow/arrivals", query: ["tag": tag])).arrived
    }

    /// Waits until at least `count` of these requests are at the server.
    func waitForArrivals(_ count: Int = 1, at client: APIClient) async throws {
        try await eventually("\(count) /slow request(s) at the server") { try await arrivals(at: client) >= count }
    }
}

/// A middleware that counts the response heads that came back through it: once one has, its body is what is
/// still to be read.
final class HeadArrivals: ClientMiddleware {
    private let count = Atomic<Int>(0)

    /// How many heads came back.
    var heads: Int { count.load(ordering: .relaxed) }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let answer = try await next(request, body, baseURL)
        count.add(1, ordering: .relaxed)
        return answer
    }
}
