import Synchronization

/// Admits requests in arrival order: at most `maxConcurrent` at once, and (through a ``Pacer``) starts at
/// least `interval` apart.
///
/// Waiting is cancellable, and a waiter that is cancelled before its turn leaves the queue without taking
/// or freeing anything.
final class Throttle: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var inFlight = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    let maxConcurrent: Int?
    private let pacer: Pacer?
    private let state = Mutex(State())

    init(maxConcurrent: Int?, interval: Duration?) {
        self.maxConcurrent = maxConcurrent.map { max(1, $0) }
        self.pacer = interval.map(Pacer.init)
    }

    /// Waits for a concurrency slot and then for this request's start time. Pair with ``release()``.
    func acquire() async throws {
        if let maxConcurrent { try await takeSlot(limit: maxConcurrent) }
        guard let pacer else { return }
        do {
            try await pacer.waitForTurn()
        } catch {
            release()
            throw error
        }
    }

    /// Frees the slot taken by ``acquire()``, handing it straight to the longest waiter if there is one.
    func release() {
        guard maxConcurrent != nil else { return }
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    private func takeSlot(limit: Int) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.waiters.isEmpty && state.inFlight < limit {
                        state.inFlight += 1
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }
}
