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
        try await Task.sleep(for: pause)  // Real time on purpose: what is awaited runs on the real clock.
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

/// A request to the demo server's `/slow` or `/drip`, tagged so that a test can wait until the server has it
/// (`/slow` counts on arrival, `/drip` once its head and first chunk are out; see `GET /arrivals`).
struct TaggedRequest {
    let tag = "tagged-\(UUID().uuidString.prefix(8))"
    let request: APIRequest<Data>

    /// `GET /slow` waiting `milliseconds`.
    static func slow(milliseconds: Int) -> TaggedRequest { TaggedRequest(path: "/slow", query: ["ms": milliseconds]) }

    /// `GET /drip`, `chunks` of `size` bytes `intervalMs` apart.
    static func drip(chunks: Int, intervalMs: Int, size: Int) -> TaggedRequest {
        TaggedRequest(path: "/drip", query: ["chunks": chunks, "intervalMs": intervalMs, "size": size])
    }

    private init(path: RoutePath, query: Query) {
        var query = query
        query["tag"] = .init(tag)
        request = APIRequest<Data>.get(path, query: query)
    }

    /// How many of these requests the server has noted.
    func arrivals(at client: APIClient) async throws -> Int {
        struct Arrivals: Decodable { let arrived: Int }
        // Unobserved: a test of metrics and traces counts only its own calls.
        return try await APIClient(baseURL: client.baseURL) { $0.reportsMetricsAndTraces = false }
            .send(APIRequest<Arrivals>.get("/arrivals", query: ["tag": tag])).arrived
    }

    /// Waits until the server has noted at least `count` of these requests.
    func waitForArrivals(_ count: Int = 1, at client: APIClient) async throws {
        try await eventually("\(count) tagged request(s) at the server") { try await arrivals(at: client) >= count }
    }
}

/// A stream read to its end in a task of its own, each element (as `transform` makes it) handed to the test
/// as it arrives: so that a test can act on the client's clock between two elements.
struct BackgroundRead<Element: Sendable> {
    /// The elements as they arrive.
    var arrivals: AsyncStream<Element>.AsyncIterator
    /// Every element, and the error the stream ended with (`nil` for a clean end).
    let result: Task<([Element], APIError?), Never>

    init<S: AsyncSequence & Sendable>(_ sequence: S, _ transform: @escaping @Sendable (S.Element) -> Element)
    where S.Failure == APIError {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        arrivals = stream.makeAsyncIterator()
        result = Task {
            defer { continuation.finish() }
            var elements: [Element] = []
            do throws(APIError) {
                for try await element in sequence {
                    let made = transform(element)
                    elements.append(made)
                    continuation.yield(made)
                }
            } catch {
                return (elements, error)
            }
            return (elements, nil)
        }
    }

    /// The next element, or `nil` once the stream has ended.
    mutating func next() async -> Element? { await arrivals.next() }
}
