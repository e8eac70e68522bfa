import Foundation
import HTTPTypes
import Synchronization

/// Identical requests in flight share one exchange: the first starts it in a task of its own, and every
/// caller, the first included, waits for its result. A caller that is cancelled stops waiting at once; the
/// exchange is cancelled only when no caller waits any more. Once it ends, the next identical request starts
/// a new one.
final class Coalescer: Sendable {
    /// What makes two requests the same: the value type they decode to (and how: the consumer's type), the
    /// method, the full URL and every header field, credentials included.
    struct Key: Hashable, Sendable {
        let consumer: ObjectIdentifier
        let method: HTTPRequest.Method
        let url: String
        let fields: [HTTPField]
    }

    typealias Outcome = Result<any Sendable, APIError>

    /// One shared exchange and its waiters.
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

    /// `operation`'s value, shared with every identical call in flight; `nil` when this caller was cancelled.
    func run<Value: Sendable>(
        _ key: Key, _ operation: @escaping @Sendable () async throws(APIError) -> Value
    ) async -> Result<Value, APIError>? {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (flight, leads) = flights.withLock { flights -> (Flight, Bool) in
            let flight = flights[key] ?? Flight()
            let leads = flights[key] == nil
            flights[key] = flight
            flight.state.withLock { $0.callers += 1 }
            return (flight, leads)
        }
        if leads {
            let task = Task {
                let outcome: Outcome
                do throws(APIError) { outcome = .success(try await operation()) } catch { outcome = .failure(error) }
                finish(flight, key: key, with: outcome)
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
            // Every caller under one key decodes to the same type (it is part of the key).
            guard let value = value as? Value else { return nil }
            return .success(value)
        }
    }

    /// The shared exchange ended: every waiter gets its outcome, and the next identical request starts anew.
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

    /// A caller was cancelled: it stops waiting, and the exchange is cancelled when it was the last.
    private func leave(_ flight: Flight, key: Key, id: UInt64) {
        let (waiter, task) = flight.state.withLock {
            state -> (CheckedContinuation<Outcome?, Never>?, Task<Void, Never>?) in
            let waiter = state.waiters.removeValue(forKey: id)
            if waiter == nil && state.outcome == nil { state.cancelled.insert(id) }
            state.callers -= 1
            return (waiter, state.callers == 0 && state.outcome == nil ? state.task : nil)
        }
        waiter?.resume(returning: nil)
        if let task {
            flights.withLock { flights in
                if flights[key] === flight { flights[key] = nil }
            }
            task.cancel()
        }
    }
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
