import Courier
import CourierTesting
import Dispatch
import Foundation
import HTTPTypes
import Synchronization
import Testing

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
            for _ in 0..<500 where calls.withLock({ $0.count }) < count { try await Task.sleep(for: .milliseconds(10)) }
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
        client.send(GetUser(login: "a")) { deliveries.record($0) }
        client.send(GetUser(login: "missing")) { deliveries.record($0) }
        try await deliveries.wait(forAtLeast: 2)
        try await Task.sleep(for: .milliseconds(100))  // a second call for either would arrive by now
        let calls = deliveries.calls.withLock { $0 }
        #expect(calls.count == 2)
        #expect(calls.allSatisfy { $0.onQueue })
        #expect(calls.filter { $0.kind == nil }.count == 1)
        #expect(calls.filter { $0.kind == .transport }.count == 1)
    }

    @Test func handleCancelsAndStillDeliversOnce() async throws {
        let slow = MockTransport { _ in
            try await Task.sleep(for: .seconds(30))
            return (HTTPResponse(status: .ok), Data())
        }
        let deliveries = Deliveries()
        let started = ContinuousClock.now
        let handle = client(slow).send(APIRequest<Data>.get("/slow")) { deliveries.record($0) }
        try await Task.sleep(for: .milliseconds(50))
        handle.cancel()
        #expect(handle.isCancelled)
        try await deliveries.wait(forAtLeast: 1)
        try await Task.sleep(for: .milliseconds(100))
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
