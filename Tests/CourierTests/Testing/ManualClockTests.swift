import CourierTesting
import Foundation
import Synchronization
import Testing

@testable import Courier

/// `ManualClock` moves only when told, wakes its sleepers in deadline order, and lets a cancelled sleeper go;
/// Courier's readings of a clock (`TimeSource`) follow it.
@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
    @Test func sleepersWakeWhenTheClockReachesTheirDeadlinesInOrder() async throws {
        final class Woken: Sendable { let order = Mutex<[Int]>([]) }
        let clock = ManualClock()
        let woken = Woken()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    // The ManualClock under test: no real time passes.
                    try await clock.sleep(until: .init(offset: .seconds(seconds)))
                    woken.order.withLock { $0.append(seconds) }
                }
            }
            await clock.waitForSleepers(3)
            #expect(clock.earliestDeadline == .init(offset: .seconds(1)))
            clock.advance(by: .milliseconds(999))
            #expect(clock.sleeperCount == 3, "a sleeper woke before its deadline")
            // One deadline at a time: only the sleeper it reaches wakes.
            for (second, expected) in [(1, [1]), (2, [1, 2]), (3, [1, 2, 3])] {
                clock.advance(to: .init(offset: .seconds(second)))
                #expect(clock.sleeperCount == 3 - second)
                try await eventually("the \(second) s sleeper awake") { woken.order.withLock { $0 } == expected }
            }
            try await group.waitForAll()
        }
        #expect(clock.now == .init(offset: .seconds(3)))
    }

    @Test func aDeadlineAlreadyReachedDoesNotWait() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        // The ManualClock under test: no real time passes.
        try await clock.sleep(until: .init(offset: .seconds(5)))
        // The ManualClock under test: no real time passes.
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledSleeperThrowsAndLeaves() async throws {
        let clock = ManualClock()
        // The ManualClock under test: no real time passes.
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .init(offset: .zero))

        // Cancelled before it calls `sleep`: it never waits.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            // The ManualClock under test: no real time passes.
            try await clock.sleep(for: .seconds(60))
        }
        await #expect(throws: CancellationError.self) { try await early.value }
    }

    @Test func courierReadsTheClockItIsGiven() async throws {
        let clock = ManualClock()
        let time = TimeSource(clock)
        let start = time.date
        #expect(time.now == .zero)
        clock.advance(by: .seconds(90))
        #expect(time.now == .seconds(90))
        #expect(time.date.timeIntervalSince(start) == 90)
        // The ManualClock under test: no real time passes.
        let waiting = Task { try await time.sleep(for: .seconds(10)) }
        await clock.waitForSleepers()
        #expect(clock.earliestDeadline == .init(offset: .seconds(100)))
        clock.advance(by: .seconds(10))
        try await waiting.value
        #expect(TimeSource(clock).isSame(as: time) == false)
        #expect(time.isSame(as: time))
        // The real clock is one source for the process, so nested time limits on it compare.
        #expect(TimeSource(ContinuousClock()).isSame(as: TimeSource(ContinuousClock())))
        #expect(abs(TimeSource(ContinuousClock()).date.timeIntervalSinceNow) < 1)
    }

    @Test func aTimeLimitOnTheClientsClockEndsTheCallWhenTheClockSays() async throws {
        let clock = ManualClock()
        let mock = MockTransport { _ in try await hangUntilCancelled() }
        let client = APIClient(baseURL: exampleBaseURL, transport: mock) {
            $0.clock = clock
            $0.timeout = .seconds(30)
        }
        let call = Task { try await client.send(APIRequest<Data>.get("/never")) }
        await clock.waitForSleepers()
        #expect(clock.earliestDeadline == .init(offset: .seconds(30)))
        clock.advance(by: .seconds(30))
        let error = await #expect(throws: APIError.self) { try await call.value }
        #expect(error?.kind == .timedOut)
        #expect(error?.description.contains("no complete response within 30") == true)
    }
}
