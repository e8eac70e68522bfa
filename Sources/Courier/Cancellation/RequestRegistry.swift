import Synchronization

/// The in-flight requests of ``CancellableByType`` endpoints, by endpoint type. One per client, shared
/// by its copies.
final class RequestRegistry: Sendable {
    struct Entry: Sendable {
        let endpoint: any Sendable
        let cancel: @Sendable () -> Void
    }

    private struct State {
        var nextToken: UInt64 = 0
        var entries: [ObjectIdentifier: [UInt64: Entry]] = [:]
    }

    private let state = Mutex(State())

    /// Records a request; returns the token to remove it with.
    func add<E: Route>(_ endpoint: E, cancel: @escaping @Sendable () -> Void) -> UInt64 {
        state.withLock { state in
            state.nextToken += 1
            state.entries[ObjectIdentifier(E.self), default: [:]][state.nextToken] = Entry(
                endpoint: endpoint, cancel: cancel)
            return state.nextToken
        }
    }

    /// Forgets a finished request.
    func remove<E: Route>(_ type: E.Type, token: UInt64) {
        state.withLock { state in
            state.entries[ObjectIdentifier(E.self)]?[token] = nil
            if state.entries[ObjectIdentifier(E.self)]?.isEmpty == true {
                state.entries[ObjectIdentifier(E.self)] = nil
            }
        }
    }

    /// How many requests of `type` are in flight.
    func count<E: Route>(_ type: E.Type) -> Int {
        state.withLock { $0.entries[ObjectIdentifier(E.self)]?.count ?? 0 }
    }

    /// Cancels the in-flight requests of `type` that pass `filter`; returns how many. The filter runs
    /// outside the lock, so it may use the client.
    func cancelAll<E: Route>(_ type: E.Type, where filter: (E) -> Bool) -> Int {
        let entries = state.withLock { Array(($0.entries[ObjectIdentifier(E.self)] ?? [:]).values) }
        var cancelled = 0
        for entry in entries {
            guard let endpoint = entry.endpoint as? E, filter(endpoint) else { continue }
            entry.cancel()
            cancelled += 1
        }
        return cancelled
    }
}
