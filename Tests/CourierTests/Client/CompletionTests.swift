import CourierTesting
import Dispatch
import Foundation
import HTTPTypes
import Synchronization
import Testing

@testable import Courier

/// The completion-handler API: exactly one call, on the configured queue, and a handle that cancels.
@Suite(.timeLimit(.minutes(1))) struct CompletionTests {
    static let queueKey = DispatchSpecificKey<String>()

    /// Waits for completion handlers and counts them.
    final class Deliveries: Sendable {
        let calls = Mutex<[(onQueue: Bool, kind: APIError.Kind?)]>([])

        func record<T>(_ result: Result<T, APIError>) {
            let onQueue = DispatchQueue.getSpecific(key: CompletionTests.queueKey) == "courier-test-queue"
            let kind: APIError.Kind? = if case .failure(let error) = result { error.kind } else { nil }
            calls.withLock { $0.append((onQueue, kind)) }
        }

        func wait(forAtLeast count: Int) async throws {
            try await eventually("\(count) completion handler call(s)") { calls.withLock({ $0.count }) >= count }
        }
    }

    /// Returns once `handles` have finished and every completion handler they queued has run: a request's
    /// task queues its handler before it ends, and the callback queue is serial.
    func settle(_ handles: [RequestHandle], on client: APIClient) async {
        for handle in handles { await handle.task.value }
        await withCheckedContinuation { continuation in
            client.configuration.callbackQueue.async { continuation.resume() }
        }
    }

    func client(_ transport: MockTransport) -> APIClient {
        let queue = DispatchQueue(label: "courier-test-queue")
        queue.setSpecific(key: Self.queueKey, value: "courier-test-queue")
        return APIClient(baseURL: exampleBaseURL, transport: transport) { $0.callbackQueue = queue }
    }

    @Test func deliversOnceOnTheChosenQueue() async throws {
        let client = client(MockTransport(stubs: [.init(.get, "/users/a", json: #"{"login":"a","id":1}"#)]))
        let deliveries = Deliveries()
        let found = client.send(GetUser(login: "a")) { deliveries.record($0) }
        let missing = client.send(GetUser(login: "missing")) { deliveries.record($0) }
        await settle([found, missing], on: client)
        let calls = deliveries.calls.withLock { $0 }
        #expect(calls.count == 2)
        #expect(calls.allSatisfy { $0.onQueue })
        #expect(calls.filter { $0.kind == nil }.count == 1)
        #expect(calls.filter { $0.kind == .transport }.count == 1)
    }

    @Test func handleCancelsAndStillDeliversOnce() async throws {
        let entered = Atomic<Bool>(false)
        let slow = MockTransport { _ in
            entered.store(true, ordering: .relaxed)
            try await hangUntilCancelled()
        }
        let deliveries = Deliveries()
        let started = ContinuousClock.now
        let client = client(slow)
        let handle = client.send(APIRequest<Data>.get("/slow")) { deliveries.record($0) }
        try await eventually("the request in the transport") { entered.load(ordering: .relaxed) }
        handle.cancel()
        #expect(handle.isCancelled)
        await settle([handle], on: client)
        let calls = deliveries.calls.withLock { $0 }
        #expect(calls.count == 1)
        #expect(calls.first?.kind == .cancelled)
        #expect(calls.first?.onQueue == true)
        #expect(ContinuousClock.now - started < .seconds(5), "waited for the 30 s transport")
    }

    @Test func routesWithACompletionHandler() async throws {
        let client = client(MockTransport(stubs: [.init(.get, "/users/a", json: #"{"login":"a","id":1}"#)]))
        struct Users: Route { var path: RoutePath { "/users/a" } }
        let deliveries = Deliveries()
        client.send(Users(), as: User.self) { deliveries.record($0) }
        try await deliveries.wait(forAtLeast: 1)
        #expect(deliveries.calls.withLock { $0.first?.kind } == nil)
    }
}
