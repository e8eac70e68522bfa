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

    /// One shared piece of work and its waiters (see ``FlightStateMachine``).
    private final class Flight: Sendable {
        typealias Machine = FlightStateMachine<CheckedContinuation<Outcome?, Never>, Task<Void, Never>, Outcome>
        let state = Mutex(Machine())
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
            // Joining happens under the flights lock, so a last caller leaving (below, under the same lock)
            // can't cancel work a new caller has just joined.
            if let existing = flights[key],
                existing.state.withLock({ machine in
                    guard machine.isJoinable else { return false }
                    machine.join()
                    return true
                })
            {
                return (existing, false)
            }
            let flight = Flight()
            flight.state.withLock { $0.join() }
            flights[key] = flight
            return (flight, true)
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
            if case .cancel(let work) = flight.state.withLock({ $0.attach(task) }) { work.cancel() }
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome?, Never>) in
                let action = flight.state.withLock { $0.wait(id, as: continuation) }
                if case .resume(let waiter, let outcome) = action { waiter.resume(returning: outcome) }
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
        let waiters = flight.state.withLock { $0.finish(outcome) }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// A caller was cancelled: it stops waiting, and the work is cancelled when it was the last.
    private func leave(_ flight: Flight, key: Key, id: UInt64) {
        let action = flights.withLock { flights in
            let action = flight.state.withLock { $0.leave(id) }
            if action.abandoned, flights[key] === flight { flights[key] = nil }
            return action
        }
        action.resume?.resume(returning: nil)
        action.cancel?.cancel()
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
/// (``DecodingKey``) runs once, and every caller with that way gets its result, however late it comes. A
/// decoding in progress is shared through a ``Coalescer``, so it is cancelled when every caller waiting for it
/// has been.
final class DecodedValues: Sendable {
    private let decoded = Mutex<[DecodingKey: Result<any Sendable, any Error>]>([:])
    private let inProgress = Coalescer<DecodingKey>()

    /// The value `decode` gives, decoded once under `key`.
    func value<Value: Sendable>(_ key: DecodingKey, _ decode: @escaping @Sendable () throws -> Value) async throws
        -> Value
    {
        // The key names the endpoint type, so every caller under it decodes to `Value`.
        if let done = decoded.withLock({ $0[key] }) {
            guard let value = try done.get() as? Value else { throw CancellationError() }
            return value
        }
        let outcome = await inProgress.run(key) { [self] () throws -> Value in
            let result = Result { try decode() }
            self.decoded.withLock { $0[key] = result.map { $0 as any Sendable } }
            return try result.get()
        }
        guard let outcome else { throw CancellationError() }
        return try outcome.get()
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
