/// Spaces starts at least `interval` apart, measured from each predecessor's actual start, in arrival order.
///
/// Works as a relay: the request holding the baton waits until its predecessor's start plus `interval`,
/// notes its own start, and hands the baton (with that time) to the next in line. A sleep never ends early,
/// so no two starts can be closer than `interval`, however late a task is scheduled. A request cancelled
/// while waiting passes the baton on without having started.
final class Pacer: Sendable {
    private struct Relay: Sendable {
        var batonHeld = false
        var lastStart: Duration?
    }

    let interval: Duration
    private let time: TimeSource
    /// The baton carries the previous request's start (a reading of `time`), if there was one.
    private let relay = WaitingRoom<Relay, Duration?>(Relay())

    init(interval: Duration, time: TimeSource) {
        self.interval = interval
        self.time = time
    }

    /// Returns when this request may start.
    func waitForTurn() async throws {
        let previous = try await relay.enter { relay -> Duration?? in
            guard !relay.batonHeld else { return nil }
            relay.batonHeld = true
            return .some(relay.lastStart)
        }
        if let previous {
            do {
                try await time.sleep(until: previous + interval)
            } catch {
                passBaton(lastStart: previous)
                throw error
            }
        }
        passBaton(lastStart: time.now)
    }

    private func passBaton(lastStart: Duration?) {
        relay.handOff(lastStart) { relay, toWaiter in
            relay.lastStart = lastStart
            if !toWaiter { relay.batonHeld = false }
        }
    }
}
