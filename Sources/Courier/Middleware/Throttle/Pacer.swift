import Synchronization

/// Spaces starts at least `interval` apart, measured from each predecessor's actual start, in arrival order.
///
/// Works as a relay: the request holding the baton waits until its predecessor's start plus `interval`,
/// notes its own start, and hands the baton (with that time) to the next in line. A sleep never ends early,
/// so no two starts can be closer than `interval`, however late a task is scheduled. A request cancelled
/// while waiting passes the baton on without having started.
final class Pacer: Sendable {
    private typealias Baton = CheckedContinuation<ContinuousClock.Instant?, any Error>

    private struct State {
        var batonHeld = false
        var lastStart: ContinuousClock.Instant?
        var waiting: [(id: UInt64, baton: Baton)] = []
        var nextID: UInt64 = 0
    }

    let interval: Duration
    private let state = Mutex(State())

    init(interval: Duration) { self.interval = interval }

    /// Returns when this request may start.
    func waitForTurn() async throws {
        let previous = try await takeBaton()
        if let previous {
            do {
                try await Task.sleep(until: previous + interval, clock: .continuous)
            } catch {
                passBaton(lastStart: previous)
                throw error
            }
        }
        passBaton(lastStart: .now)
    }

    private func takeBaton() async throws -> ContinuousClock.Instant? {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (baton: Baton) in
                let ready = state.withLock { state -> Result<ContinuousClock.Instant?, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.batonHeld else {
                        state.batonHeld = true
                        return .success(state.lastStart)
                    }
                    state.waiting.append((id, baton))
                    return nil
                }
                if let ready { baton.resume(with: ready) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Baton? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index).baton
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    private func passBaton(lastStart: ContinuousClock.Instant?) {
        let next = state.withLock { state -> Baton? in
            state.lastStart = lastStart
            guard !state.waiting.isEmpty else {
                state.batonHeld = false
                return nil
            }
            return state.waiting.removeFirst().baton
        }
        next?.resume(returning: lastStart)
    }
}
