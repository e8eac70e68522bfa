import Dispatch

extension APIClient {
    /// Sends `endpoint` and calls `completion` exactly once, on ``Configuration/callbackQueue``, with the
    /// decoded response or the error. For callers that don't use `async`/`await`.
    ///
    /// ```swift
    /// let handle = client.send(GetUser(login: "octocat")) { result in
    ///     switch result {
    ///     case .success(let user): show(user)
    ///     case .failure(let error): show(error)
    ///     }
    /// }
    /// handle.cancel()  // the completion then receives an error of kind `.cancelled`
    /// ```
    @discardableResult
    public func send<E: Endpoint>(
        _ endpoint: E, completion: @escaping @Sendable (Result<E.Response, APIError>) -> Void
    ) -> RequestHandle {
        let queue = pipeline.settings.callbackQueue
        let task = Task {
            let result: Result<E.Response, APIError>
            do throws(APIError) {
                result = .success(try await send(endpoint))
            } catch {
                result = .failure(error)
            }
            queue.async { completion(result) }
        }
        return RequestHandle(task: task)
    }

    /// Sends a ``Route`` decoding its body as `T`, and calls `completion` exactly once on the callback queue.
    @discardableResult
    public func send<R: Route, T: Decodable & Sendable>(
        _ route: R, as type: T.Type, completion: @escaping @Sendable (Result<T, APIError>) -> Void
    ) -> RequestHandle {
        send(RouteEndpoint<R, T>(route: route), completion: completion)
    }
}

/// A request started with a completion handler; cancel it with ``cancel()``.
public struct RequestHandle: Sendable {
    let task: Task<Void, Never>

    /// Cancels the request. Its completion handler still runs, once, with an error of kind `.cancelled`
    /// (unless the request had already finished).
    public func cancel() { task.cancel() }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { task.isCancelled }
}
