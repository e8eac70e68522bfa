public import HTTPTypes

/// When and how often a request is retried; see ``RetryMiddleware``.
///
/// ```swift
/// let policy = RetryPolicy.exponentialBackoff(maxAttempts: 4, baseDelay: .milliseconds(200))
/// let client = APIClient(baseURL: url, middlewares: [.retry(policy)])
/// ```
public struct RetryPolicy: Sendable {
    /// The most times a request is sent, the first included; 3 by default.
    public var maxAttempts: Int
    /// The backoff before retry n is a random duration up to `baseDelay × 2^(n-1)` (full jitter), capped
    /// by ``maxDelay``; 500 ms by default.
    public var baseDelay: Duration
    /// The longest backoff; 30 s by default.
    public var maxDelay: Duration
    /// Whether backoffs are randomised (full jitter) or exactly `baseDelay × 2^(n-1)`; `true` by default.
    public var jitter: Bool
    /// The longest `Retry-After` honoured; a longer one is shortened to this. 60 s by default.
    public var maxRetryAfter: Duration
    /// A limit on the whole sequence of attempts and waits; no retry starts that would end its wait past
    /// it. `nil` (the default) means only ``maxAttempts`` limits retries.
    public var deadline: Duration?
    /// Response statuses that are retried: 408, 429, 500, 502, 503, 504 by default.
    public var retryableStatuses: Set<Int>
    /// Methods that are retried: the idempotent ones (GET, HEAD, OPTIONS, TRACE, PUT, DELETE) by default.
    /// A request with another method is retried only when it carries an `Idempotency-Key` header.
    public var retryableMethods: Set<HTTPRequest.Method>
    /// Decides whether a thrown error is worth retrying; by default connection refused or reset, a lost
    /// connection, name resolution failures and timeouts are, cancellation is not.
    public var isTransient: @Sendable (any Error) -> Bool

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        jitter: Bool = true, maxRetryAfter: Duration = .seconds(60), deadline: Duration? = nil,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace, .put, .delete],
        isTransient: @escaping @Sendable (any Error) -> Bool = RetryPolicy.isTransientByDefault
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
        self.deadline = deadline
        self.retryableStatuses = retryableStatuses
        self.retryableMethods = retryableMethods
        self.isTransient = isTransient
    }

    /// The default ``isTransient``: connection refused, reset or lost, name resolution failures and
    /// timeouts from URLSession, SwiftNIO and AsyncHTTPClient. Compose your own with it:
    /// `isTransient: { RetryPolicy.isTransientByDefault($0) || $0 is MyGatewayError }`.
    public static func isTransientByDefault(_ error: any Error) -> Bool {
        if let apiError = TransportFailure.unwrapped(error) as? APIError {
            return apiError.kind == .timedOut || apiError.kind == .transport
        }
        return TransportFailure.classify(error)?.isTransient ?? false
    }

    /// Exponential backoff with full jitter.
    public static func exponentialBackoff(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        deadline: Duration? = nil
    ) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, baseDelay: baseDelay, maxDelay: maxDelay, deadline: deadline)
    }

    /// The wait before retry number `retry` (1 for the first retry).
    func backoff(beforeRetry retry: Int) -> Duration {
        let exponent = min(retry - 1, 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        guard jitter else { return ceiling }
        return ceiling * Double.random(in: 0...1)
    }

    /// Whether this request may be sent again at all: its method is idempotent (or it carries an
    /// `Idempotency-Key`) and its body, if any, can be read more than once.
    func allowsRetry(of request: HTTPRequest, bodyIsReplayable: Bool) -> Bool {
        guard bodyIsReplayable else { return false }
        if retryableMethods.contains(request.method) { return true }
        return request.headerFields[.idempotencyKey] != nil
    }

}
