/// The decisions of a stream reader's pump (``StreamReader`` with an idle timeout): chunks read ahead of the
/// consumer (at most ``capacity``), who waits for what, when the idle clock runs, and how the pump ends.
///
/// Transitions return what to do (resume the consumer with a chunk, wake the producer, cancel the read)
/// instead of doing it, so the lock around the state never spans a resumption, and every transition is tested
/// without tasks, a clock or a network. Times are readings of the reader's clock, passed in.
struct ChunkPumpStateMachine<Chunk, Consumer, Producer> {
    /// How many chunks may wait for the consumer.
    static var capacity: Int { 4 }

    fileprivate enum Reading {
        /// A network read is in progress, since `since`: the idle clock runs.
        case network(since: Duration)
        /// The buffer is full: the producer waits (once suspended, as `producer`) and the idle clock stops.
        case waitingForRoom(producer: Producer?)
    }

    fileprivate enum State {
        case pumping(reading: Reading, consumer: Consumer?)
        /// The body ended (`.success`) or failed; chunks still buffered are handed out first.
        case ended(Result<Void, any Error>)
    }

    let idleTimeout: Duration
    private var state: State
    /// The chunks read ahead, oldest first, from `head`.
    private var buffer: [Chunk] = []
    private var head = 0

    /// A pump whose first network read starts at `now`.
    init(idleTimeout: Duration, now: Duration) {
        self.idleTimeout = idleTimeout
        state = .pumping(reading: .network(since: now), consumer: nil)
    }

    private var buffered: Int { buffer.count - head }

    /// What to do with a chunk the producer read.
    enum ProduceAction {
        /// Resume the waiting consumer with it; read on.
        case deliver(Consumer, Chunk)
        /// Kept for the consumer; read on, or (`full`) wait for room with ``waitForRoom(_:)``.
        case buffered(full: Bool)
        /// The pump has ended: stop reading.
        case stop
    }

    /// The producer read `chunk`.
    mutating func produced(_ chunk: Chunk) -> ProduceAction {
        guard case .pumping(let reading, let consumer) = state else { return .stop }
        if let consumer {
            state = .pumping(reading: reading, consumer: nil)
            return .deliver(consumer, chunk)
        }
        buffer.append(chunk)
        guard buffered >= Self.capacity else { return .buffered(full: false) }
        // Waiting for room is not waiting on the network: the idle clock stops until reading again.
        state = .pumping(reading: .waitingForRoom(producer: nil), consumer: nil)
        return .buffered(full: true)
    }

    /// The producer, with the buffer full, waits as `producer`: `true` to suspend, `false` to go on at once
    /// (room was made, or the pump ended, meanwhile).
    mutating func waitForRoom(_ producer: Producer) -> Bool {
        guard case .pumping(.waitingForRoom(nil), let consumer) = state, buffered >= Self.capacity else {
            return false
        }
        state = .pumping(reading: .waitingForRoom(producer: producer), consumer: consumer)
        return true
    }

    /// The producer starts a network read at `now` (the idle clock restarts); `false` when the pump has ended
    /// and it should stop.
    mutating func reading(now: Duration) -> Bool {
        guard case .pumping(_, let consumer) = state else { return false }
        state = .pumping(reading: .network(since: now), consumer: consumer)
        return true
    }

    /// What to do with a consumer that wants the next chunk.
    enum TakeAction {
        /// Resume it now with a chunk, `nil` (the end) or the failure; and wake `producer` if it waited for
        /// room.
        case resume(Consumer, Result<Chunk?, any Error>, wake: Producer?)
        /// Keep it suspended until a chunk or the end comes.
        case suspend
    }

    /// The consumer wants the next chunk, waiting as `consumer` if none is ready.
    mutating func take(_ consumer: Consumer) -> TakeAction {
        if buffered > 0 {
            let chunk = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                head = 0
            }
            var wake: Producer?
            if case .pumping(.waitingForRoom(let producer?), let waiting) = state {
                // Room is made: the producer reads again (it restarts the idle clock itself).
                wake = producer
                state = .pumping(reading: .waitingForRoom(producer: nil), consumer: waiting)
            }
            return .resume(consumer, .success(chunk), wake: wake)
        }
        switch state {
        case .ended(.success): return .resume(consumer, .success(nil), wake: nil)
        case .ended(.failure(let error)): return .resume(consumer, .failure(error), wake: nil)
        case .pumping(let reading, _):
            state = .pumping(reading: reading, consumer: consumer)
            return .suspend
        }
    }

    /// When the watchdog should look next: the idle timeout after the network read in progress began, or one
    /// timeout from `now` while the producer waits for room; `nil` once the pump has ended.
    func deadline(now: Duration) -> Duration? {
        switch state {
        case .ended: return nil
        case .pumping(.network(let since), _): return since + idleTimeout
        case .pumping(.waitingForRoom, _): return now + idleTimeout
        }
    }

    /// What to do when the pump ends.
    struct FinishAction {
        /// The consumer waiting, to resume with the end (`nil` chunk) or the failure.
        var consumer: Consumer?
        /// The producer waiting for room, to wake (it then finds the pump ended).
        var producer: Producer?
        /// Whether the read must be cancelled (an early end: a failure, a timeout, a consumer gone).
        var cancelRead = false
        /// How the pump ended (the first ending wins).
        var end: Result<Void, any Error> = .success(())
    }

    /// The pump ends with `end` unless it has already; the first ending wins.
    mutating func finish(_ end: Result<Void, any Error>) -> FinishAction {
        guard case .pumping(let reading, let consumer) = state else {
            guard case .ended(let first) = state else { return FinishAction() }
            return FinishAction(cancelRead: isFailure(end), end: first)
        }
        state = .ended(end)
        var producer: Producer?
        if case .waitingForRoom(let waiting) = reading { producer = waiting }
        return FinishAction(consumer: consumer, producer: producer, cancelRead: isFailure(end), end: end)
    }

    /// At `now`, ends the pump with ``IdleTimeout`` when a network read has waited for the whole timeout.
    mutating func timeOutIfIdle(now: Duration) -> FinishAction? {
        guard case .pumping(.network(let since), _) = state, since + idleTimeout <= now else { return nil }
        return finish(.failure(IdleTimeout(limit: idleTimeout)))
    }

    private func isFailure(_ end: Result<Void, any Error>) -> Bool {
        if case .failure = end { return true }
        return false
    }
}

extension ChunkPumpStateMachine: Sendable where Chunk: Sendable, Consumer: Sendable, Producer: Sendable {}
extension ChunkPumpStateMachine.State: Sendable where Chunk: Sendable, Consumer: Sendable, Producer: Sendable {}
extension ChunkPumpStateMachine.Reading: Sendable where Chunk: Sendable, Consumer: Sendable, Producer: Sendable {}
