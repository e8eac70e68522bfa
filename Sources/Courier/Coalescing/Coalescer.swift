import Foundation
import HTTPTypes
import Synchronization

/// Identical work in flight done once: the first caller under a key starts it in a task of its own, and
/// every caller, the first included, waits for its result. A caller that is cancelled stops waiting at once;
/// the work is cancelled only when no caller waits any more. Once it ends, the next caller under the key
/// starts it anew. The client uses one for identical requests (keyed by the request as it goes to the
/// network) and one per shared response for decoding it once per type.
final class Coalescer<Key: Hashable & Sendable>: Sendable {
    typealias Outcome = Result<any Sendable, any Error>

    /// One shared piece of work and its waiters.
    private final class Flight: Sendable {
        struct State {
            var waiters: [UInt64: CheckedContinuation<Outcome?, Never>] = [:]
            /// Callers cancelled before they started waiting.
            var cancelled: Set<UInt64> = []
            var outcome: Outcome?
            var task: Task<Void, Never>?
            var callers = 0
        }

        let state = Mutex(State())
    }

    private let flights = Mutex<[Key: Flight]>([:])
    private let nextID = Atomic<UInt64>(0)

    init() {}

    /// `operation`'s result, shared with every caller under `key` in flight; `nil` when this caller was
    /// cancelled.
    func run<Value: Sendable>(_ key: Key, _ operation: @escaping @Sendable () async throws -> Value) async -> Result<
        Value, any Error
    >? {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (flight, leads) = flights.withLock { flights -> (Flight, Bool) in
            let existing = flights[key]
            let flight = existing ?? Flight()
            flights[key] = flight
            // Joining happens under the flights lock, so a last caller leaving (below, under the same lock)
            // can't cancel work a new caller has just joined.
            flight.state.withLock { $0.callers += 1 }
            return (flight, existing == nil)
        }
        if leads {
            // Shared by every caller, so bound by none's time limit (a span would call its cancellation a
            // timeout).
            let task = Task {
                await TimeLimit.$deadline.withValue(nil) {
                    let outcome: Outcome
                    do { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                    finish(flight, key: key, with: outcome)
                }
            }
            flight.state.withLock { $0.task = task }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let ready: Outcome?? = flight.state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .some(nil) }
                    if let outcome = state.outcome { return .some(outcome) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            leave(flight, key: key, id: id)
        }
        switch outcome {
        case nil: return nil
        case .failure(let error): return .failure(error)
        case .success(let value):
            // Every caller under one key expects the same type (the keys make sure of it).
            guard let value = value as? Value else { return nil }
            return .success(value)
        }
    }

    /// The work ended: every waiter gets its outcome, and the next caller under the key starts anew.
    private func finish(_ flight: Flight, key: Key, with outcome: Outcome) {
        flights.withLock { flights in
            if flights[key] === flight { flights[key] = nil }
        }
        let waiters = flight.state.withLock { state in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// A caller was cancelled: it stops waiting, and the work is cancelled when it was the last.
    private func leave(_ flight: Flight, key: Key, id: UInt64) {
        let (waiter, task) = flights.withLock { flights in
            let (waiter, task) = flight.state.withLock {
                state -> (CheckedContinuation<Outcome?, Never>?, Task<Void, Never>?) in
                let waiter = state.waiters.removeValue(forKey: id)
                if waiter == nil && state.outcome == nil { state.cancelled.insert(id) }
                state.callers -= 1
                return (waiter, state.callers == 0 && state.outcome == nil ? state.task : nil)
            }
            if task != nil, flights[key] === flight { flights[key] = nil }
            return (waiter, task)
        }
        waiter?.resume(returning: nil)
        task?.cancel()
    }
}

/// What identical requests are keyed by: the method, the full URL and every header field as the request
/// goes to the network (after middleware and the cookie jar), so credentials are part of it.
/// and how it uses the cache (a reload must not join a request that may be answered from the cache).
struct RequestKey: Hashable, Sendable {
    let method: HTTPRequest.Method
    let url: String
    let fields: [HTTPField]
    let cacheMode: CacheMode
}

/// A response shared by identical requests: its head, its whole body (still content-encoded), where it came
/// from, and the values decoded from it.
struct SharedResponse: Sendable {
    let response: HTTPResponse
    let body: Data?
    let cacheStatus: CacheStatus
    let decodings = DecodedValues()
}

/// The values decoded from one shared response, kept for as long as the response: each way of decoding
/// (``DecodingKey``) runs once, in a task of its own, and every caller with that way awaits its result,
/// however late it comes.
final class DecodedValues: Sendable {
    private let tasks = Mutex<[DecodingKey: Task<any Sendable, any Error>]>([:])

    /// The value `decode` gives, decoded by the first caller under `key`.
    func value<Value: Sendable>(_ key: DecodingKey, _ decode: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        let task = tasks.withLock { tasks in
            if let task = tasks[key] { return task }
            let task = Task<any Sendable, any Error> { try decode() }
            tasks[key] = task
            return task
        }
        // The key names the endpoint type, so every caller under it decodes to `Value`.
        guard let value = try await task.value as? Value else { throw CancellationError() }
        return value
    }
}

/// One way of decoding a shared response: the endpoint type, and the decoder and envelope it decodes with
/// (by identity for classes, such as `JSONDecoder`, else by type). Endpoints of one type whose `decode`
/// reads other properties of their own are assumed to decode the same response the same way.
struct DecodingKey: Hashable, Sendable {
    let endpoint: ObjectIdentifier
    let decoder: ObjectIdentifier
    let envelope: ObjectIdentifier?

    init(endpoint: Any.Type, decoder: any Sendable, envelope: (any Sendable)?) {
        self.endpoint = ObjectIdentifier(endpoint)
        self.decoder = Self.identity(of: decoder)
        self.envelope = envelope.map(Self.identity(of:))
    }

    private static func identity(of value: any Sendable) -> ObjectIdentifier {
        type(of: value) is AnyClass ? ObjectIdentifier(value as AnyObject) : ObjectIdentifier(type(of: value))
    }
}

/// The shared response's body could not be read in full: the failure, with the head it belonged to, so that
/// each caller reports it as a failure of receiving (`.bodyTooLarge` for one past the limit).
struct SharedBodyFailure: Error {
    let response: HTTPResponse
    let underlying: any Error
}

extension Route {
    /// The client's choice.
    public var coalesces: Bool? { nil }
}

extension APIRequest {
    /// This request, shared with identical ones in flight (`true`) or always sent on its own (`false`).
    public func coalesced(_ shares: Bool = true) -> Self {
        var copy = self
        copy.coalesces = shares
        return copy
    }
}
