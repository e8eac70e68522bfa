import CourierDemoServer
import Synchronization

/// How many requests the `/testing/pages/*` routes have served on one server instance.
final class PaginationCounters: Sendable {
    enum Style {
        case link, cursor, numbered
    }

    /// What `GET /testing/pages/stats` returns: all page requests and each style's.
    struct Counts: Encodable, Sendable {
        var requests = 0
        var link = 0
        var cursor = 0
        var numbered = 0
    }

    private let counts = Mutex(Counts())

    /// Counts one page request.
    func count(_ style: Style) {
        counts.withLock { counts in
            counts.requests += 1
            switch style {
            case .link: counts.link += 1
            case .cursor: counts.cursor += 1
            case .numbered: counts.numbered += 1
            }
        }
    }

    var current: Counts {
        counts.withLock { $0 }
    }

    func reset() {
        counts.withLock { $0 = Counts() }
    }
}
