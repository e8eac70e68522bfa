import Foundation
import Testing

@testable import Courier

/// Every transition of a request's life on a `URLSessionTask`, without URLSession, tasks or a network: the
/// response is a string, waiters are strings, and both ways of bounding the buffer are tried on every
/// platform.
@Suite struct TaskExchangeStateMachineTests {
    typealias Machine = TaskExchangeStateMachine<String, String, String>
    struct Broken: Error {}
    struct NoResponse: Error {}

    static let suspending = Machine(backpressure: .suspend(past: 8), takeLimit: 6)
    static let failing = Machine(backpressure: .fail(past: 8), takeLimit: 6)

    /// Records a failed expectation; `return fail(…)` leaves the test.
    func fail(_ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record(comment, sourceLocation: sourceLocation)
    }

    func bytes(_ count: Int, _ value: UInt8 = 1) -> Data { Data(repeating: value, count: count) }

    /// What `action` resumed `reader` with: bytes, `.some(nil)` for the end, `nil` for anything else.
    func read(_ action: Machine.ReadAction, _ reader: String) -> [UInt8]?? {
        guard case .resume(reader, .success(let chunk), _) = action else { return nil }
        return .some(chunk.map(Array.init))
    }

    func suspends(_ action: Machine.ReadAction) -> Bool {
        guard case .suspend = action else { return false }
        return true
    }

    func startsTask(_ action: Machine.HeadAction) -> Bool {
        guard case .startTask = action else { return false }
        return true
    }

    @Test func theHeadWaiterStartsTheTaskAndGetsTheResponse() throws {
        var machine = Self.suspending
        #expect(startsTask(machine.waitForHead("caller")))
        #expect(machine.received("200 OK") == "caller")
        #expect(machine.received("again") == nil, "one head per exchange")
        guard case .resume("late", .success("200 OK")) = machine.waitForHead("late") else {
            Issue.record("a later head waiter did not get the response at once")
            return
        }
    }

    @Test func aWaitingReaderGetsDeliveriesDirectlyAndTheEndAfterThem() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        #expect(suspends(machine.read("r")))
        guard case .deliver("r", let data) = machine.received(bytes(3)), data.count == 3 else {
            Issue.record("the waiting reader did not get the delivery")
            return
        }
        _ = machine.received(bytes(2, 7))
        let action = machine.completed(with: nil, noResponse: NoResponse())
        #expect(action.head == nil && action.reader == nil)
        #expect(read(machine.read("r"), "r") == .some([7, 7]), "bytes that wait come before the end")
        #expect(read(machine.read("r"), "r") == .some(nil))
        guard case .none = machine.received(bytes(1)) else {
            Issue.record("a delivery after the end was not dropped")
            return
        }
    }

    @Test func aReadTakesWholeDeliveriesUpToTheLimitAndAtLeastOne() {
        var machine = Machine(backpressure: .suspend(past: 100), takeLimit: 6)
        _ = machine.received("200 OK")
        for (count, value) in [(4, 1), (2, 2), (3, 3), (9, 4)] { _ = machine.received(bytes(count, UInt8(value))) }
        #expect(read(machine.read("r"), "r") == .some([1, 1, 1, 1, 2, 2]))
        #expect(read(machine.read("r"), "r") == .some([3, 3, 3]))
        #expect(read(machine.read("r"), "r") == .some(Array(repeating: 4, count: 9)), "one delivery over the limit")
    }

    @Test func pastTheBufferTheTaskIsSuspendedAndResumedOnceHalfIsRead() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        guard case .none = machine.received(bytes(5)) else { return fail("suspended too early") }
        guard case .suspendTask = machine.received(bytes(5)) else { return fail("not suspended past 8") }
        guard case .none = machine.received(bytes(1)) else { return fail("suspended twice") }
        // 11 wait; taking 5 leaves 6 (> 4): still suspended. Taking the other 6 leaves none: resume.
        guard case .resume("r", _, resumeTask: false) = machine.read("r") else { return fail("resumed early") }
        guard case .resume("r", _, resumeTask: true) = machine.read("r") else { return fail("not resumed") }
        _ = machine.received(bytes(1))
        guard case .resume("r", _, resumeTask: false) = machine.read("r") else { return fail("resumed twice") }
    }

    @Test func aTaskThatCompletedIsNeitherSuspendedNorResumed() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        _ = machine.received(bytes(5))
        _ = machine.received(bytes(5))  // suspended
        _ = machine.completed(with: nil, noResponse: NoResponse())
        _ = machine.read("r")
        guard case .resume("r", _, resumeTask: false) = machine.read("r") else {
            return fail("a completed task was resumed")
        }
    }

    @Test func pastTheReadAheadLimitTheTransferFailsOnceURLSessionHasCompletedIt() {
        var machine = Self.failing
        _ = machine.received("200 OK")
        _ = machine.received(bytes(5))
        guard case .stopTask = machine.received(bytes(5)) else { return fail("not stopped past 8") }
        guard case .none = machine.received(bytes(5)) else { return fail("a delivery after the stop was kept") }
        // The reader waits for the completion: the deliveries before it are dropped by then.
        #expect(suspends(machine.read("r")))
        let action = machine.completed(with: URLError(.cancelled), noResponse: NoResponse())
        guard let (reader, end) = action.reader, reader == "r", let exceeded = end as? ReadAheadExceeded else {
            return fail("the reader did not get ReadAheadExceeded at completion")
        }
        #expect(exceeded.limit == 8)
        guard case .resume("r", .failure(let again), _) = machine.read("r") else { return fail("no error") }
        #expect(again is ReadAheadExceeded)
    }

    @Test func cancellingWhileTheTransferStopsFailsTheReaderThenTheCompletionEndsIt() {
        var machine = Self.failing
        _ = machine.received("200 OK")
        _ = machine.received(bytes(9))  // past 8: stopping
        #expect(suspends(machine.read("r")))
        #expect(!machine.readerGoneNeedsCancel, "the transfer is already being stopped")
        #expect(machine.cancel().reader == "r")
        #expect(suspends(machine.read("again")), "a read after the cancellation waits for the completion")
        guard let (reader, end) = machine.completed(with: nil, noResponse: NoResponse()).reader, reader == "again",
            end is ReadAheadExceeded
        else { return fail("the completion did not end the stopped transfer") }
    }

    @Test func cancellingBeforeTheHeadFailsTheWaiterAndEveryLaterOne() {
        var machine = Self.suspending
        _ = machine.waitForHead("caller")
        let action = machine.cancel()
        #expect(action.head == "caller" && action.reader == nil)
        #expect(machine.received("200 OK") == nil, "a head after the cancellation goes nowhere")
        guard case .resume("late", .failure(let error)) = machine.waitForHead("late") else {
            return fail("a later head waiter was not failed")
        }
        #expect(error is CancellationError)
        #expect(!machine.readerGoneNeedsCancel)
    }

    @Test func cancellingWhileReadingFailsTheReaderAndDropsTheBuffer() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        #expect(machine.readerGoneNeedsCancel, "a reader leaving an open body cancels it")
        _ = machine.received(bytes(3))
        _ = machine.read("r")
        #expect(suspends(machine.read("r")))
        #expect(machine.cancel().reader == "r")
        guard case .resume("r", .failure(let error), _) = machine.read("r") else { return fail("no error") }
        #expect(error is CancellationError)
    }

    @Test func bytesDroppedByACancellationNeverEndTheBodyCleanly() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        _ = machine.received(bytes(3))
        _ = machine.completed(with: nil, noResponse: NoResponse())  // ended cleanly, 3 bytes unread
        #expect(machine.cancel().reader == nil)
        guard case .resume("r", .failure(let error), _) = machine.read("r") else {
            return fail("a body with dropped bytes ended cleanly")
        }
        #expect(error is CancellationError)
    }

    @Test func cancellingAFinishedBodyKeepsItsCleanEnd() {
        var machine = Self.suspending
        _ = machine.received("200 OK")
        _ = machine.completed(with: nil, noResponse: NoResponse())
        _ = machine.cancel()
        #expect(read(machine.read("r"), "r") == .some(nil))
    }

    @Test func aCompletionWithoutAHeadFailsTheHeadWaiterAndTheBody() {
        var machine = Self.suspending
        _ = machine.waitForHead("caller")
        let action = machine.completed(with: Broken(), noResponse: NoResponse())
        guard let (waiter, failure) = action.head, waiter == "caller", failure is Broken else {
            return fail("the head waiter did not get the transport's error")
        }
        guard case .resume("r", .failure(let error), _) = machine.read("r"), error is Broken else {
            return fail("the body did not end with the error")
        }
        var clean = Self.suspending
        _ = clean.waitForHead("caller")
        guard let (_, missing) = clean.completed(with: nil, noResponse: NoResponse()).head, missing is NoResponse
        else { return fail("a clean completion without a head was not a failure") }
    }

    @Test func aFailureAfterTheHeadReachesTheWaitingReader() {
        var machine = Self.failing
        _ = machine.received("200 OK")
        _ = machine.read("r")
        let action = machine.completed(with: Broken(), noResponse: NoResponse())
        guard let (reader, end) = action.reader, reader == "r", end is Broken else {
            return fail("the waiting reader did not get the transport's error")
        }
    }
}
