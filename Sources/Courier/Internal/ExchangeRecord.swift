import Synchronization

/// What happened inside the middleware chain of one request, for the error Courier builds afterwards:
/// whether the transport (rather than a middleware) threw, and how many attempts a retry middleware made.
/// It also tells Courier's middleware what the client hides (its ``Redaction``).
///
/// Bound as a task-local only while a client runs a non-empty middleware chain, so a request without
/// middleware pays nothing for it.
final class ExchangeRecord: Sendable {
    @TaskLocal static var current: ExchangeRecord?

    /// The sending client's ``APIClient/Configuration/redaction``.
    let redaction: Redaction
    private let transportFailed = Atomic<Bool>(false)

    init(redaction: Redaction) { self.redaction = redaction }

    private let attemptCount = Atomic<Int>(0)

    func noteTransportFailure() { transportFailed.store(true, ordering: .relaxed) }
    func noteTransportSuccess() { transportFailed.store(false, ordering: .relaxed) }
    var didTransportFail: Bool { transportFailed.load(ordering: .relaxed) }

    /// Called by a retry middleware before each attempt.
    func noteAttempt() { attemptCount.add(1, ordering: .relaxed) }
    /// Attempts made, or 0 when no retry middleware counted any.
    var attempts: Int { attemptCount.load(ordering: .relaxed) }
}
