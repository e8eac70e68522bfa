import Testing

@testable import Courier

/// Every transition of a shared flight, without tasks or a network: waiters are strings, the work a number.
@Suite struct FlightStateMachineTests {
    typealias Machine = FlightStateMachine<String, Int, String>

    /// A flight with `callers` joined and its work (7) attached.
    func running(callers: Int) -> Machine {
        var machine = Machine()
        for _ in 0..<callers { machine.join() }
        guard case .none = machine.attach(7) else {
            Issue.record("attaching to a running flight asked for a cancellation")
            return machine
        }
        return machine
    }

    @Test func waitersSuspendUntilTheWorkEndsThenAllGetItsOutcome() {
        var machine = running(callers: 2)
        guard case .suspend = machine.wait(1, as: "a"), case .suspend = machine.wait(2, as: "b") else {
            Issue.record("a waiter was resumed before the work ended")
            return
        }
        #expect(machine.finish("done").sorted() == ["a", "b"])
        #expect(!machine.isJoinable)
        // A caller that comes to wait afterwards gets the outcome at once.
        guard case .resume("late", "done") = machine.wait(3, as: "late") else {
            Issue.record("a late waiter did not get the outcome")
            return
        }
        // Leaving after the end changes nothing and cancels nothing.
        let left = machine.leave(1)
        #expect(left.resume == nil && left.cancel == nil && !left.abandoned)
    }

    @Test func aWaiterThatLeavesIsResumedWithNothingAndTheWorkGoesOnForTheOthers() {
        var machine = running(callers: 2)
        _ = machine.wait(1, as: "a")
        _ = machine.wait(2, as: "b")
        let left = machine.leave(1)
        #expect(left.resume == "a")
        #expect(left.cancel == nil, "the work was cancelled while another caller waits")
        #expect(!left.abandoned && machine.isJoinable)
        #expect(machine.finish("done") == ["b"])
    }

    @Test func theLastCallerLeavingCancelsTheWorkAndAbandonsTheFlight() {
        var machine = running(callers: 1)
        _ = machine.wait(1, as: "a")
        let left = machine.leave(1)
        #expect(left.resume == "a")
        #expect(left.cancel == 7)
        #expect(left.abandoned)
        #expect(!machine.isJoinable)
        // The cancelled work still ends; nobody is left to resume.
        #expect(machine.finish("cancelled").isEmpty)
    }

    @Test func aCallerThatLeavesBeforeWaitingIsResumedWithNothingWhenItComes() {
        var machine = running(callers: 2)
        let left = machine.leave(1)
        #expect(left.resume == nil && left.cancel == nil)
        guard case .resume("a", nil) = machine.wait(1, as: "a") else {
            Issue.record("a caller that had left was made to wait")
            return
        }
        // The other caller still waits for the outcome.
        guard case .suspend = machine.wait(2, as: "b") else {
            Issue.record("the remaining caller was resumed early")
            return
        }
        #expect(machine.finish("done") == ["b"])
    }

    @Test func everyCallerLeavingBeforeTheWorkIsAttachedCancelsItOnAttach() {
        var machine = Machine()
        machine.join()
        let left = machine.leave(1)
        #expect(left.cancel == nil, "no work to cancel yet")
        #expect(left.abandoned)
        guard case .cancel(7) = machine.attach(7) else {
            Issue.record("work attached to an abandoned flight was not cancelled")
            return
        }
        // A caller that left comes to wait on the abandoned flight: resumed with nothing.
        guard case .resume("a", nil) = machine.wait(1, as: "a") else {
            Issue.record("a waiter on an abandoned flight was suspended")
            return
        }
    }

    @Test func aSecondCallerJoiningKeepsTheWorkAliveWhenTheFirstLeaves() {
        var machine = running(callers: 1)
        machine.join()
        let left = machine.leave(1)
        #expect(left.cancel == nil && !left.abandoned)
        _ = machine.wait(2, as: "b")
        #expect(machine.finish("done") == ["b"])
    }

    @Test func anAttachAfterTheEndDoesNothing() {
        var machine = Machine()
        machine.join()
        _ = machine.finish("done")
        guard case .none = machine.attach(7) else {
            Issue.record("finished work was cancelled")
            return
        }
    }
}
