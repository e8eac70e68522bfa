import Synchronization

/// A lock-protected `State` and a first-in, first-out queue of tasks waiting on it: the shared mechanism of
/// ``Throttle`` (slots) and ``Pacer`` (a baton).
///
/// A task enters and is admitted at once when nobody is waiting and `admit` grants it a value; otherwise it
/// waits until ``handOff(_:update:)`` passes a value straight to the longest waiter. Waiting is cancellable;
/// a cancelled waiter leaves the queue having taken nothing. The decisions are a
/// ``WaitingRoomStateMachine``'s; continuations are never resumed under the lock.
final class WaitingRoom<State: Sendable, Value: Sendable>: Sendable {
    private typealias Machine = WaitingRoomStateMachine<State, CheckedContinuation<Value, any Error>>

    private let room: Mutex<Machine>
    private let nextID = Atomic<UInt64>(0)

    init(_ state: State) { room = Mutex(Machine(state)) }

    /// How many tasks are waiting.
    var waitingCount: Int { room.withLock { $0.waitingCount } }

    /// Waits for a value: `admit` is asked (under the lock) only when nobody is waiting, and returns the value
    /// for an immediate entry or `nil` to queue.
    func enter(admit: @escaping @Sendable (inout State) -> Value?) async throws -> Value {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let action = room.withLock { machine in
                    machine.enter(id, as: continuation, cancelled: Task.isCancelled, admit: admit)
                }
                switch action {
                case .admit(let value): continuation.resume(returning: value)
                case .refuse: continuation.resume(throwing: CancellationError())
                case .suspend: break
                }
            }
        } onCancel: {
            room.withLock { $0.leave(id) }?.resume(throwing: CancellationError())
        }
    }

    /// Passes `value` to the longest waiter, if any. `update` runs under the lock first and is told whether
    /// a waiter takes the value (when none does, the owner typically frees what it held).
    func handOff(_ value: Value, update: (inout State, _ toWaiter: Bool) -> Void) {
        room.withLock { $0.handOff(update: update) }?.resume(returning: value)
    }
}
