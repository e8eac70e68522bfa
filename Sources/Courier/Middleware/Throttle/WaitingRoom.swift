import Synchronization

/// A lock-protected `State` and a first-in, first-out queue of tasks waiting on it: the shared mechanism of
/// ``Throttle`` (slots) and ``Pacer`` (a baton).
///
/// A task enters and is admitted at once when nobody is waiting and `admit` grants it a value; otherwise it
/// waits until ``handOff(_:update:)`` passes a value straight to the longest waiter. Waiting is cancellable;
/// a cancelled waiter leaves the queue having taken nothing. Continuations are never resumed under the lock.
final class WaitingRoom<State: Sendable, Value: Sendable>: Sendable {
    private typealias Waiter = (id: UInt64, continuation: CheckedContinuation<Value, any Error>)

    private struct Room: Sendable {
        var state: State
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let room: Mutex<Room>

    init(_ state: State) { room = Mutex(Room(state: state)) }

    /// How many tasks are waiting.
    var waitingCount: Int { room.withLock { $0.waiting.count } }

    /// Waits for a value: `admit` is asked (under the lock) only when nobody is waiting, and returns the value
    /// for an immediate entry or `nil` to queue.
    func enter(admit: @escaping @Sendable (inout State) -> Value?) async throws -> Value {
        let id = room.withLock { room in
            room.nextID += 1
            return room.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let outcome = room.withLock { room -> Result<Value, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if room.waiting.isEmpty, let value = admit(&room.state) { return .success(value) }
                    room.waiting.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = room.withLock { room -> CheckedContinuation<Value, any Error>? in
                guard let index = room.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return room.waiting.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    /// Passes `value` to the longest waiter, if any. `update` runs under the lock first and is told whether
    /// a waiter takes the value (when none does, the owner typically frees what it held).
    func handOff(_ value: Value, update: (inout State, _ toWaiter: Bool) -> Void) {
        let next = room.withLock { room -> CheckedContinuation<Value, any Error>? in
            let toWaiter = !room.waiting.isEmpty
            update(&room.state, toWaiter)
            return toWaiter ? room.waiting.removeFirst().continuation : nil
        }
        next?.resume(returning: value)
    }
}
