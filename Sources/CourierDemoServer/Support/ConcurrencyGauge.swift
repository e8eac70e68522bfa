/// Counts requests in flight: how many now, the most at once, how many in all, and when each arrived
/// (milliseconds after the first), so tests can check a client's concurrency and rate limits.
///
/// A value type: its owner keeps it in a `Mutex`.
package struct ConcurrencyGauge: Encodable, Sendable {
    /// Arrival times kept at most; later arrivals are counted but not timed.
    package static let maximumArrivals = 10_000

    private(set) var inFlight = 0
    private(set) var maxInFlight = 0
    private(set) var total = 0
    private(set) var arrivals: [Int] = []
    private var firstArrival: ContinuousClock.Instant?

    /// A gauge with nothing counted.
    package init() {}

    private enum CodingKeys: String, CodingKey {
        case inFlight, maxInFlight, total, arrivals
    }

    /// Records a request arriving at `now`; returns how many are in flight with it.
    package mutating func enter(at now: ContinuousClock.Instant) -> Int {
        let first = firstArrival ?? now
        firstArrival = first
        if arrivals.count < Self.maximumArrivals {
            arrivals.append(Int((now - first) / .milliseconds(1)))
        }
        inFlight += 1
        total += 1
        maxInFlight = max(maxInFlight, inFlight)
        return inFlight
    }

    /// Records a request finishing. A reset while requests were in flight never drives the count negative.
    package mutating func leave() {
        inFlight = max(0, inFlight - 1)
    }
}
