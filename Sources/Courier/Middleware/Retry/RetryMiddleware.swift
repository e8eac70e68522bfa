public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Sends a request again when it fails in a way that may pass: a transient status (503, 429, …) or a
/// transient network error. Waits with exponential backoff and full jitter, or as long as `Retry-After`
/// says (in seconds or as an HTTP-date, capped). Only idempotent requests with replayable bodies are
/// retried. Waiting is cancellable. ``APIError/attempts`` tells how many attempts were made.
///
/// ```swift
/// let client = APIClient(baseURL: url, middlewares: [.retry(.exponentialBackoff(maxAttempts: 4))])
/// ```
public struct RetryMiddleware: ClientMiddleware {
    /// When and how often to retry.
    public let policy: RetryPolicy

    /// Sends the request, and again while the policy allows.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let context = MiddlewareContext.current
        guard policy.allowsRetry(of: request, bodyIsReplayable: body?.iterationBehavior != .single) else {
            context?.recordAttempt()
            return try await next(request, body, baseURL)
        }
        // The client's clock, so that a test clock drives the waits.
        let time = context?.time ?? .continuous
        let started = time.now
        var attempt = 1
        while true {
            context?.recordAttempt()
            let delay: Duration
            do {
                let (response, responseBody) = try await next(request, body, baseURL)
                guard policy.retryableStatuses.contains(response.status.code) else { return (response, responseBody) }
                // An HTTP-date is the server's wall clock: read against ours, then waited on the client's clock.
                let asked = RetryAfter.delay(response.headerFields[.retryAfter]).map { min($0, policy.maxRetryAfter) }
                delay = asked ?? policy.backoff(beforeRetry: attempt)
                guard mayRetry(after: attempt, waiting: delay, since: started, time: time) else {
                    return (response, responseBody)
                }
            } catch {
                guard !Task.isCancelled, policy.isTransient(TransportFailure.unwrapped(error)) else { throw error }
                delay = policy.backoff(beforeRetry: attempt)
                guard mayRetry(after: attempt, waiting: delay, since: started, time: time) else { throw error }
            }
            try await time.sleep(for: delay)
            attempt += 1
        }
    }

    private func mayRetry(
        after attempt: Int, waiting delay: Duration, since started: Duration, time: TimeSource
    ) -> Bool {
        guard attempt < policy.maxAttempts else { return false }
        guard let deadline = policy.deadline else { return true }
        return time.now + delay - started <= deadline
    }
}

extension ClientMiddleware where Self == RetryMiddleware {
    /// Retries transient failures of idempotent requests as `policy` says.
    public static func retry(_ policy: RetryPolicy = .exponentialBackoff()) -> Self { RetryMiddleware(policy: policy) }
}
