import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Synchronization
import Testing

/// The `ManualClock` listing, compiled and run: a retry's wait passes on the test's clock, not the wall's.
@Suite(.timeLimit(.minutes(1))) struct DocCClockListings {
    @Test func manualClockDrivesARetry() async throws {
        let calls = Atomic<Int>(0)
        let mock = MockTransport { _ in
            guard calls.add(1, ordering: .relaxed).newValue > 1 else {
                return (HTTPResponse(status: .serviceUnavailable, headerFields: [.retryAfter: "30"]), Data())
            }
            return (HTTPResponse(status: .ok), Data(#"{"login":"octocat","id":1}"#.utf8))
        }
        let url = exampleBaseURL
        let started = ContinuousClock.now
        // BEGIN DOCC: ManualClock
        let clock = ManualClock()
        let client = APIClient(baseURL: url, transport: mock, middlewares: [.retry()]) { $0.clock = clock }
        let call = Task { try await client.send(GetUser(login: "octocat")) }
        await clock.waitForSleepers()  // the retry waits for the 30 s Retry-After
        clock.advance(by: .seconds(30))  // and goes on at once
        let user = try await call.value
        // END DOCC: ManualClock
        #expect(user.login == "octocat")
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(ContinuousClock.now - started < .seconds(30), "waited on the wall clock")
    }
}
