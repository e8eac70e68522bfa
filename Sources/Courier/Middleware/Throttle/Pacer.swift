/// Spaces starts at least `interval` apart, measured from each predecessor's actual start, in arrival order.
///
/// Works as a relay: the request holding the baton waits until its predecessor's start plus `interval`,
/// notes its own start, and hands the baton (with that time) to the next in line. A sleep never ends early,
/// so no two starts can be closer than `interval`, however late a task is scheduled. A request cancelled
/// while waiting passes the baton on without having started.
final class Pacer: Sendable {
    /// Who holds the baton, and the start it carries.
    struct Relay: Sendable {
        var batonHeld = false
        var lastStart: Duration?

        /// Takes the baton when nobody holds it: the previous start (`.some(nil)` for the first request).
        mutating func takeBaton() -> Duration?? {
            guard !batonHeld else { return nil }
            batonHeld = true
            return .some(lastStart)
        }

        /// The holder passes the baton on with its start; it is put down when nobody waits for it.
        mutating func passBaton(lastStart: Duration?, toWaiter: Bool) {
            self.lastStart = lastStart
            if !toWaiter { batonHeld = false }
        }
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
        let previous = try await relay.enter { $0.takeBaton() }
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
        relay.handOff(lastStart) { $0.passBaton(lastStart: lastStart, toWaiter: $1) }
    }
}
