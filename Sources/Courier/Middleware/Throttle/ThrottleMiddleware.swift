public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Limits how many requests a client has in flight and how many it starts per second. Requests wait their
/// turn in arrival order; waiting is cancellable. A slot is held until the response body has been read to
/// its end (or dropped), so a streaming download counts as in flight while it streams.
///
/// ```swift
/// let client = APIClient(baseURL: url, middlewares: [.throttle(maxConcurrent: 4, perSecond: 10)])
/// ```
/// Copies of a client share one throttle, since they share the middleware.
public struct ThrottleMiddleware: ClientMiddleware {
    let throttle: Throttle

    /// The most requests in flight at once, or `nil` for no limit.
    public var maxConcurrent: Int? { throttle.maxConcurrent }

    /// Waits for a turn, then passes the request on.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        try await throttle.acquire()
        let slot = SlotRelease(throttle)
        let (response, responseBody) = try await next(request, body, baseURL)  // a throw drops `slot`: released
        guard let responseBody else {
            slot.release()
            return (response, nil)
        }
        let held = HTTPBody(
            SlotHoldingBody(base: responseBody, slot: slot), length: responseBody.length,
            iterationBehavior: responseBody.iterationBehavior)
        return (response, held)
    }
}

extension ClientMiddleware where Self == ThrottleMiddleware {
    /// At most `maxConcurrent` requests in flight and at most `perSecond` started per second (evenly
    /// spaced, on `clock`); `nil` lifts either limit. The throttle's state is shared by every client given
    /// this middleware, so it keeps its own clock (`ContinuousClock` by default; a test clock in tests).
    public static func throttle(
        maxConcurrent: Int? = nil, perSecond: Double? = nil, clock: any Clock<Duration> = ContinuousClock()
    ) -> Self {
        let interval = perSecond.flatMap { $0 > 0 ? Duration.seconds(1 / $0) : nil }
        return ThrottleMiddleware(
            throttle: Throttle(maxConcurrent: maxConcurrent, interval: interval, time: TimeSource(clock)))
    }
}
