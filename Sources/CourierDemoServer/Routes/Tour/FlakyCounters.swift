import Synchronization

/// How many requests each `/testing/flaky/{key}` has had on one server instance.
final class FlakyCounters: Sendable {
    private let attempts = Mutex<[String: Int]>([:])

    /// Counts a request to `key`; returns its attempt number (1 for the first).
    func attempt(_ key: String) -> Int {
        attempts.withLock { attempts in
            let attempt = (attempts[key] ?? 0) + 1
            attempts[key] = attempt
            return attempt
        }
    }

    /// The requests `key` has had so far.
    func attempts(_ key: String) -> Int {
        attempts.withLock { $0[key] ?? 0 }
    }

    /// Forgets `key`'s requests, or every key's when `key` is nil.
    func reset(_ key: String? = nil) {
        attempts.withLock { attempts in
            if let key { attempts[key] = nil } else { attempts.removeAll() }
        }
    }

    /// How many keys have been used.
    var keyCount: Int {
        attempts.withLock { $0.count }
    }
}
