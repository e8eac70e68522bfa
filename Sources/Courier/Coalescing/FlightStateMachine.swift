/// The life of one piece of shared work and the callers waiting for it, as transitions that say what to do
/// next (resume a waiter, cancel the work) instead of doing it, so that the lock around the state never spans
/// a resumption and every transition is tested without tasks or a network (AsyncHTTPClient's
/// `Transaction+StateMachine` has the same shape).
///
/// Generic over what a waiter is (a continuation) and what the work is (a task), and over its outcome.
struct FlightStateMachine<Waiter, Work, Outcome> {
    private enum State {
        /// Callers have joined and the work runs (or is about to: `work` is `nil` until it is attached).
        /// `waiting` are the callers suspended for the outcome; `leftEarly` left before they suspended.
        case running(callers: Int, work: Work?, waiting: [UInt64: Waiter], leftEarly: Set<UInt64>)
        /// Every caller left before the work ended: it is cancelled, and the flight is no longer joinable.
        case abandoned
        /// The work ended; a caller that comes to wait after this gets the outcome at once.
        case finished(Outcome)
    }

    private var state = State.running(callers: 0, work: nil, waiting: [:], leftEarly: [])

    /// Whether a new caller may still join (the flight neither ended nor was abandoned).
    var isJoinable: Bool {
        if case .running = state { return true }
        return false
    }

    /// A caller joins. Only a joinable flight is joined (the owner checks ``isJoinable`` under the same lock).
    mutating func join() {
        guard case .running(let callers, let work, let waiting, let leftEarly) = state else { return }
        state = .running(callers: callers + 1, work: work, waiting: waiting, leftEarly: leftEarly)
    }

    /// What to do once the work has been started.
    enum AttachAction {
        case none
        /// Every caller left before the work could be attached: cancel it.
        case cancel(Work)
    }

    /// The work has started; it is cancelled at once when nobody waits for it any more.
    mutating func attach(_ work: Work) -> AttachAction {
        switch state {
        case .running(let callers, _, let waiting, let leftEarly):
            state = .running(callers: callers, work: work, waiting: waiting, leftEarly: leftEarly)
            return .none
        case .abandoned:
            return .cancel(work)
        case .finished:
            return .none
        }
    }

    /// What to do with a caller that comes to wait.
    enum WaitAction {
        /// Keep it suspended: the outcome will come.
        case suspend
        /// Resume it at once with `outcome` (`nil`: it was cancelled before it began to wait).
        case resume(Waiter, Outcome?)
    }

    /// Caller `id` comes to wait as `waiter`.
    mutating func wait(_ id: UInt64, as waiter: Waiter) -> WaitAction {
        switch state {
        case .running(let callers, let work, var waiting, var leftEarly):
            if leftEarly.remove(id) != nil {
                state = .running(callers: callers, work: work, waiting: waiting, leftEarly: leftEarly)
                return .resume(waiter, nil)
            }
            waiting[id] = waiter
            state = .running(callers: callers, work: work, waiting: waiting, leftEarly: leftEarly)
            return .suspend
        case .abandoned:
            // Only a caller that has left can still come to wait here.
            return .resume(waiter, nil)
        case .finished(let outcome):
            return .resume(waiter, outcome)
        }
    }

    /// What to do when a caller leaves (its task was cancelled).
    struct LeaveAction {
        /// The caller's waiter, to resume with no outcome, if it was waiting.
        var resume: Waiter?
        /// The work, to cancel, when this was the last caller.
        var cancel: Work?
        /// Whether the flight is now abandoned (its owner stops offering it to new callers).
        var abandoned = false
    }

    /// Caller `id` leaves: it stops waiting at once, and the work is cancelled when it was the last.
    mutating func leave(_ id: UInt64) -> LeaveAction {
        guard case .running(let callers, let work, var waiting, var leftEarly) = state else { return LeaveAction() }
        let waiter = waiting.removeValue(forKey: id)
        if waiter == nil { leftEarly.insert(id) }
        guard callers > 1 else {
            state = .abandoned
            return LeaveAction(resume: waiter, cancel: work, abandoned: true)
        }
        state = .running(callers: callers - 1, work: work, waiting: waiting, leftEarly: leftEarly)
        return LeaveAction(resume: waiter)
    }

    /// The work ended with `outcome`: the waiters to resume with it (none when the flight was abandoned).
    mutating func finish(_ outcome: Outcome) -> [Waiter] {
        guard case .running(_, _, let waiting, _) = state else { return [] }
        state = .finished(outcome)
        return Array(waiting.values)
    }
}
