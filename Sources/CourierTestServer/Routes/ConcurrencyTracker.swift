import CourierDemoServer
import Synchronization

/// A ``ConcurrencyGauge`` per `/testing/concurrency/{key}` on one server instance.
final class ConcurrencyTracker: Sendable {
    private let gauges = Mutex<[String: ConcurrencyGauge]>([:])

    /// Records a request to `key` arriving now; returns how many are in flight with it.
    func enter(_ key: String) -> Int {
        let now = ContinuousClock.now
        return gauges.withLock { $0[key, default: ConcurrencyGauge()].enter(at: now) }
    }

    /// Records a request to `key` finishing.
    func leave(_ key: String) {
        gauges.withLock { $0[key]?.leave() }
    }

    /// `key`'s gauge (empty for an unused key).
    func gauge(_ key: String) -> ConcurrencyGauge {
        gauges.withLock { $0[key] ?? ConcurrencyGauge() }
    }

    /// Forgets `key`, or every key when `key` is nil.
    func reset(_ key: String? = nil) {
        gauges.withLock { gauges in
            if let key { gauges[key] = nil } else { gauges.removeAll() }
        }
    }

    /// How many keys have been used.
    var keyCount: Int {
        gauges.withLock { $0.count }
    }
}
