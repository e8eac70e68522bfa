/// Spaces starts at least `interval` apart, measured from each predecessor's actual start, in arrival order.
///
/// Works as a relay: the request holding the baton waits until its predecessor's start plus `interval`,
/// notes its own start, and hands the baton (with that time) to the next in line. A sleep never ends early,
/// so no two starts can be closer than `interval`, however late a task is scheduled. A request cancelled
/// while waiting passes the baton on without having started.
final class Pacer: Sendable {
    private struct Relay: Sendable {
        var batonHeld = false
        var lastStart: ContinuousClock.Instant?
    }

    let interval: Duration
    /// The baton carries the previous request's start, if there was one.
    private let relay = WaitingRoom<Relay, ContinuousClock.Instant?>(Relay())

    init(interval: Duration) { self.interval = interval }

    /// Returns when this request may start.
    func waitForTurn() async throws {
        let previous = try await relay.enter { relay -> ContinuousClock.Instant?? in
            guard !relay.batonHeld else { return nil }
            relay.batonHeld = true
            return .some(relay.lastStart)
        }
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

    private func passBaton(lastStart: ContinuousClock.Instant?) {
        relay.handOff(lastStart) { relay, toWaiter in
            relay.lastStart = lastStart
            if !toWaiter { relay.batonHeld = false }
        }
    }
}
