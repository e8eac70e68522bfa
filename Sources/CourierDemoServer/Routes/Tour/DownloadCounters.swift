import Synchronization

/// What `/testing/download/{n}` has served on one server instance.
final class DownloadCounters: Sendable {
    /// What `GET /testing/download/stats` returns.
    struct Counts: Encodable, Sendable {
        /// Every download request.
        var requests = 0
        /// `206` answers to a `Range`.
        var partial = 0
        /// `416` answers.
        var unsatisfiable = 0
        /// Answers cut short by `failAfter`.
        var interrupted = 0
    }

    private let counts = Mutex(Counts())

    func count(_ change: (inout Counts) -> Void) {
        counts.withLock { change(&$0) }
    }

    var current: Counts {
        counts.withLock { $0 }
    }

    func reset() {
        counts.withLock { $0 = Counts() }
    }
}
