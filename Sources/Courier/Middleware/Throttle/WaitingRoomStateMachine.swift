/// The decisions of a ``WaitingRoom``: who is admitted, who waits and in what order, who a freed value goes
/// to. Transitions return what to do with a waiter instead of resuming it, so they are tested without tasks.
struct WaitingRoomStateMachine<State, Waiter> {
    /// The owner's state (slots in flight, a baton), changed only through `admit` and `update`.
    private(set) var state: State
    /// The waiters in arrival order.
    private var waiting: [(id: UInt64, waiter: Waiter)] = []

    init(_ state: State) { self.state = state }

    /// How many are waiting.
    var waitingCount: Int { waiting.count }

    /// What to do with a task that enters.
    enum EnterAction<Value> {
        /// Resume it with `Value` at once.
        case admit(Value)
        /// Resume it with a cancellation: it was cancelled before it entered.
        case refuse
        /// Keep it suspended until a hand-off or its cancellation.
        case suspend
    }

    /// Task `id` enters as `waiter`: admitted when nobody waits and `admit` grants a value, refused when it is
    /// already `cancelled`, else queued behind the others.
    mutating func enter<Value>(
        _ id: UInt64, as waiter: Waiter, cancelled: Bool, admit: (inout State) -> Value?
    ) -> EnterAction<Value> {
        if cancelled { return .refuse }
        if waiting.isEmpty, let value = admit(&state) { return .admit(value) }
        waiting.append((id, waiter))
        return .suspend
    }

    /// Task `id` was cancelled: its waiter, to resume with a cancellation, when it was still waiting; `nil`
    /// when it was admitted or handed a value already (it keeps what it got).
    mutating func leave(_ id: UInt64) -> Waiter? {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiting.remove(at: index).waiter
    }

    /// A value is freed: `update` adjusts the state, told whether a waiter takes it; returns the longest
    /// waiter, to resume with the value, if there is one.
    mutating func handOff(update: (inout State, _ toWaiter: Bool) -> Void) -> Waiter? {
        let toWaiter = !waiting.isEmpty
        update(&state, toWaiter)
        return toWaiter ? waiting.removeFirst().waiter : nil
    }
}

extension WaitingRoomStateMachine: Sendable where State: Sendable, Waiter: Sendable {}
