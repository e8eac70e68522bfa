/// Admits requests in arrival order: at most `maxConcurrent` at once, and (through a ``Pacer``) starts at
/// least `interval` apart.
///
/// Waiting is cancellable, and a waiter that is cancelled before its turn leaves the queue without taking
/// or freeing anything.
final class Throttle: Sendable {
    let maxConcurrent: Int?
    private let pacer: Pacer?
    /// Requests in flight.
    private let slots = WaitingRoom<Int, Void>(0)

    init(maxConcurrent: Int?, interval: Duration?, time: TimeSource = .continuous) {
        self.maxConcurrent = maxConcurrent.map { max(1, $0) }
        self.pacer = interval.map { Pacer(interval: $0, time: time) }
    }

    /// How many requests are waiting for a concurrency slot.
    var waitingCount: Int { slots.waitingCount }

    /// Waits for a concurrency slot and then for this request's start time. Pair with ``release()``.
    func acquire() async throws {
        if let limit = maxConcurrent {
            try await slots.enter { Self.takeSlot(&$0, limit: limit) }
        }
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
        slots.handOff(()) { Self.freeSlot(&$0, toWaiter: $1) }
    }

    /// Takes one of `limit` slots when one is free (`inFlight` are taken).
    static func takeSlot(_ inFlight: inout Int, limit: Int) -> Void? {
        guard inFlight < limit else { return nil }
        inFlight += 1
        return ()
    }

    /// A slot is freed: handed straight to a waiter (still taken), else given back.
    static func freeSlot(_ inFlight: inout Int, toWaiter: Bool) {
        if !toWaiter { inFlight -= 1 }
    }
}
