import Synchronization

/// Remembers whether the transport (rather than a middleware) threw, so the error can say which failed.
final class TransportFailureFlag: Sendable {
    private let failed = Atomic<Bool>(false)

    func set() { failed.store(true, ordering: .relaxed) }

    var isSet: Bool { failed.load(ordering: .relaxed) }
}
