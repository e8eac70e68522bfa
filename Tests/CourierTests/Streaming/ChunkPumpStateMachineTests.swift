import Testing

@testable import Courier

/// Every transition of a stream reader's pump, without tasks, a clock or a network: chunks and waiters are
/// strings, and times are passed in.
@Suite struct ChunkPumpStateMachineTests {
    typealias Machine = ChunkPumpStateMachine<String, String, String>
    struct Broken: Error {}

    func machine() -> Machine { Machine(idleTimeout: .seconds(10), now: .zero) }

    /// The chunk `action` resumed `consumer` with (`.some(nil)`: the end), or `nil` for anything else.
    func chunk(_ action: Machine.TakeAction, to consumer: String) -> String?? {
        guard case .resume(consumer, .success(let chunk), _) = action else { return nil }
        return .some(chunk)
    }

    /// The failure `action` resumed `consumer` with (waking no producer), or `nil` for anything else.
    func failure(_ action: Machine.TakeAction, to consumer: String) -> (any Error)? {
        guard case .resume(consumer, .failure(let error), nil) = action else { return nil }
        return error
    }

    func suspends(_ action: Machine.TakeAction) -> Bool {
        guard case .suspend = action else { return false }
        return true
    }

    @Test func aWaitingConsumerGetsTheNextChunkDirectly() {
        var machine = machine()
        #expect(suspends(machine.take("c1")))
        guard case .deliver("c1", "one") = machine.produced("one") else {
            Issue.record("the waiting consumer did not get the chunk")
            return
        }
        #expect(suspends(machine.take("c2")), "nothing is buffered after a direct delivery")
    }

    @Test func chunksWaitInOrderUpToTheCapacityThenTheProducerWaitsForRoom() {
        var machine = machine()
        for index in 1..<Machine.capacity {
            guard case .buffered(full: false) = machine.produced("\(index)") else {
                Issue.record("chunk \(index) filled the buffer early")
                return
            }
        }
        guard case .buffered(full: true) = machine.produced("\(Machine.capacity)") else {
            Issue.record("the buffer was not full at its capacity")
            return
        }
        let producerWaits = machine.waitForRoom("producer")
        #expect(producerWaits)
        // Taking one makes room and wakes the producer; the rest come out in order.
        guard case .resume("c", .success("1"), wake: "producer") = machine.take("c") else {
            Issue.record("taking from a full buffer did not wake the producer")
            return
        }
        let readsAgain = machine.reading(now: .seconds(1))
        #expect(readsAgain)
        for index in 2...Machine.capacity {
            guard case .resume("c", .success(let chunk), wake: nil) = machine.take("c"), chunk == "\(index)" else {
                Issue.record("chunk \(index) was not next")
                return
            }
        }
    }

    @Test func aProducerFindingRoomAlreadyMadeGoesOnWithoutWaiting() {
        var machine = machine()
        for index in 1...Machine.capacity { _ = machine.produced("\(index)") }
        _ = machine.take("c")  // before the producer came to wait
        let producerWaits = machine.waitForRoom("producer")
        #expect(!producerWaits)
    }

    @Test func theIdleClockRunsOnlyWhileANetworkReadIsInProgress() {
        var machine = machine()
        #expect(machine.deadline(now: .seconds(3)) == .seconds(10))
        #expect(machine.timeOutIfIdle(now: .milliseconds(9_999)) == nil)
        _ = machine.produced("a")
        let readsAfterAChunk = machine.reading(now: .seconds(5))
        #expect(readsAfterAChunk)
        #expect(machine.deadline(now: .seconds(5)) == .seconds(15), "a chunk restarts the clock")
        // Full: waiting for room is not idleness, however long it lasts.
        for index in 2...Machine.capacity { _ = machine.produced("\(index)") }
        #expect(machine.timeOutIfIdle(now: .seconds(100)) == nil)
        #expect(machine.deadline(now: .seconds(100)) == .seconds(110))
        // Reading again restarts it.
        _ = machine.take("c")
        let readsAfterRoom = machine.reading(now: .seconds(200))
        #expect(readsAfterRoom)
        #expect(machine.timeOutIfIdle(now: .seconds(209)) == nil)
        guard let action = machine.timeOutIfIdle(now: .seconds(210)), case .failure(let error) = action.end else {
            Issue.record("a read idle for the whole timeout did not time out")
            return
        }
        #expect(error is IdleTimeout)
        #expect(action.cancelRead)
        #expect(machine.deadline(now: .seconds(210)) == nil)
    }

    @Test func aTimeoutWakesTheWaitingConsumerAndEveryLaterOne() throws {
        var machine = machine()
        #expect(suspends(machine.take("c")))
        let timedOut = machine.timeOutIfIdle(now: .seconds(10))
        let action = try #require(timedOut)
        #expect(action.consumer == "c" && action.producer == nil && action.cancelRead)
        // A second ending changes nothing: the first wins.
        #expect(machine.finish(.success(())).consumer == nil)
        #expect(failure(machine.take("d"), to: "d") is IdleTimeout, "a consumer after the timeout did not get it")
    }

    @Test func aCleanEndHandsOutWhatIsBufferedThenTheEnd() {
        var machine = machine()
        _ = machine.produced("last")
        let action = machine.finish(.success(()))
        #expect(action.consumer == nil && !action.cancelRead)
        #expect(chunk(machine.take("c"), to: "c") == .some("last"))
        #expect(chunk(machine.take("c"), to: "c") == .some(nil))
        guard case .stop = machine.produced("late") else {
            Issue.record("a chunk after the end was not refused")
            return
        }
        let readsAfterTheEnd = machine.reading(now: .seconds(1))
        #expect(!readsAfterTheEnd)
    }

    @Test func aFailureWhileTheProducerWaitsForRoomWakesItAndCancelsTheRead() {
        var machine = machine()
        for index in 1...Machine.capacity { _ = machine.produced("\(index)") }
        let producerWaits = machine.waitForRoom("producer")
        #expect(producerWaits)
        let action = machine.finish(.failure(Broken()))
        #expect(action.producer == "producer" && action.consumer == nil && action.cancelRead)
        let lateProducerWaits = machine.waitForRoom("again")
        #expect(!lateProducerWaits, "a producer coming after the end does not wait")
        // Buffered chunks still come out before the failure.
        for _ in 1...Machine.capacity { _ = machine.take("c") }
        #expect(failure(machine.take("c"), to: "c") is Broken, "the failure did not follow the buffered chunks")
    }

    @Test func aConsumerGoneEndsThePumpAndCancelsTheRead() {
        var machine = machine()
        #expect(suspends(machine.take("c")))
        let action = machine.finish(.failure(CancellationError()))
        #expect(action.consumer == "c" && action.cancelRead)
        guard case .stop = machine.produced("x") else {
            Issue.record("the producer was not told to stop")
            return
        }
    }
}
