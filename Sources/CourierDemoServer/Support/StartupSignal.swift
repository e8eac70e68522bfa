import Synchronization

/// Hands the bound port, or the reason the server could not start, from the server task to
/// `DemoServer.start` exactly once. Later outcomes are ignored.
final class StartupSignal: Sendable {
    private enum State {
        case waiting(CheckedContinuation<Int, any Error>?)
        case finished(Result<Int, any Error>)
    }

    private let state = Mutex<State>(.waiting(nil))

    /// Waits for the first outcome (returns at once if it has already arrived).
    func wait() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let earlyResult: Result<Int, any Error>? = state.withLock { state in
                switch state {
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                case .finished(let result):
                    return result
                }
            }
            // Resumed outside the lock.
            if let earlyResult {
                continuation.resume(with: earlyResult)
            }
        }
    }

    /// Reports that the server is listening on `port`.
    func succeed(port: Int) {
        finish(.success(port))
    }

    /// Reports that the server stopped or failed before it was listening.
    func fail(_ error: any Error) {
        finish(.failure(error))
    }

    private func finish(_ result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .finished(result)
            return continuation
        }
        // Resumed outside the lock, and at most once: only the first outcome finds a waiting state.
        waiter?.resume(with: result)
    }
}
