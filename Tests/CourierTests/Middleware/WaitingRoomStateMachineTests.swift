import Testing

@testable import Courier

/// Every transition of the throttle's waiting room, without tasks or a clock: waiters are strings, and the
/// state is the throttle's slot count or the pacer's relay, changed by the throttle's and pacer's own functions.
@Suite struct WaitingRoomStateMachineTests {
    typealias Slots = WaitingRoomStateMachine<Int, String>

    func admitted(_ action: Slots.EnterAction<Void>) -> Bool {
        guard case .admit = action else { return false }
        return true
    }

    func suspended<Value>(_ action: WaitingRoomStateMachine<some Any, String>.EnterAction<Value>) -> Bool {
        guard case .suspend = action else { return false }
        return true
    }

    func enter(_ machine: inout Slots, _ id: UInt64, _ waiter: String, cancelled: Bool = false)
        -> Slots.EnterAction<Void>
    {
        machine.enter(id, as: waiter, cancelled: cancelled) { Throttle.takeSlot(&$0, limit: 2) }
    }

    @Test func slotsAreTakenUntilTheLimitThenCallersQueueInArrivalOrder() {
        var machine = Slots(0)
        #expect(admitted(enter(&machine, 1, "a")))
        #expect(admitted(enter(&machine, 2, "b")))
        #expect(suspended(enter(&machine, 3, "c")))
        #expect(suspended(enter(&machine, 4, "d")))
        #expect(machine.state == 2 && machine.waitingCount == 2)
        // A freed slot goes straight to the longest waiter and stays taken.
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == "c")
        #expect(machine.state == 2)
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == "d")
        // With nobody waiting, freed slots are given back.
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == nil)
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == nil)
        #expect(machine.state == 0 && machine.waitingCount == 0)
    }

    @Test func aNewcomerQueuesBehindWaitersEvenWhenASlotLooksFree() {
        var machine = Slots(1)
        #expect(admitted(enter(&machine, 1, "a")))
        #expect(suspended(enter(&machine, 2, "b")))
        // Were a slot free now, the newcomer still would not pass "b".
        #expect(suspended(machine.enter(3, as: "c", cancelled: false) { _ in () }))
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == "b")
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == "c")
    }

    @Test func aCancelledWaiterLeavesTheQueueHavingTakenNothing() {
        var machine = Slots(0)
        _ = enter(&machine, 1, "a")
        _ = enter(&machine, 2, "b")
        #expect(suspended(enter(&machine, 3, "c")))
        #expect(suspended(enter(&machine, 4, "d")))
        #expect(machine.leave(3) == "c")
        #expect(machine.leave(3) == nil, "a waiter leaves once")
        #expect(machine.state == 2 && machine.waitingCount == 1)
        #expect(machine.handOff { Throttle.freeSlot(&$0, toWaiter: $1) } == "d", "the next in line is served")
    }

    @Test func leavingAfterBeingAdmittedKeepsTheSlot() {
        var machine = Slots(0)
        _ = enter(&machine, 1, "a")
        #expect(machine.leave(1) == nil)
        #expect(machine.state == 1, "an admitted caller frees its slot itself, by releasing it")
    }

    @Test func aTaskCancelledBeforeItEntersIsRefusedAndTakesNothing() {
        var machine = Slots(0)
        guard case .refuse = enter(&machine, 1, "a", cancelled: true) else {
            Issue.record("a cancelled task was not refused")
            return
        }
        #expect(machine.state == 0 && machine.waitingCount == 0)
    }

    @Test func thePacersBatonGoesFromHolderToWaiterWithTheStartItCarries() {
        typealias Relay = WaitingRoomStateMachine<Pacer.Relay, String>
        var machine = Relay(Pacer.Relay())
        guard case .admit(let start) = machine.enter(1, as: "a", cancelled: false, admit: { $0.takeBaton() }),
            start == nil
        else {
            Issue.record("the first request did not get the baton with no previous start")
            return
        }
        #expect(suspended(machine.enter(2, as: "b", cancelled: false, admit: { $0.takeBaton() })))
        // "a" started at 10 s: the baton goes to "b" carrying it.
        #expect(machine.handOff { $0.passBaton(lastStart: .seconds(10), toWaiter: $1) } == "b")
        #expect(machine.state.batonHeld && machine.state.lastStart == .seconds(10))
        // "b" started at 11 s; nobody waits: the baton is put down, remembering the start.
        #expect(machine.handOff { $0.passBaton(lastStart: .seconds(11), toWaiter: $1) } == nil)
        #expect(!machine.state.batonHeld)
        guard case .admit(let start) = machine.enter(3, as: "c", cancelled: false, admit: { $0.takeBaton() }),
            start == .seconds(11)
        else {
            Issue.record("the next request did not get the last start")
            return
        }
    }
}
