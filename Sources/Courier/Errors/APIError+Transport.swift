import Foundation
import HTTPTypes

extension APIError {
    /// What a Courier transport throws when `request` to `baseURL` fails: an ``APIError`` that names the
    /// method and the URL (its secret query values and credentials redacted with ``Redaction/default``) and
    /// says what happened in words, made by the same classifier as the client's errors
    /// (``FailureContext/sending(_:fromTransport:)``), so a generated client that shows its transport's error
    /// as it is reads `GET http://127.0.0.1:1/items failed — transport failed: connection refused (while
    /// sending)`, not a SwiftNIO dump.
    ///
    /// A cancellation (the task's, or the transport's own `cancelled` error) is a `CancellationError`, and an
    /// ``APIError`` stays as it is. The error the transport met is kept (``transportError``): an ``APIClient``'s
    /// transport stage takes it back, so spans, retries, middleware and the client's own error see it as from
    /// any other transport, redacted with the client's own policy.
    static func transportFailure(_ error: any Error, sending request: HTTPRequest, to baseURL: URL) -> any Error {
        transportFailure(error, of: request, baseURL: baseURL) { $0.sending(error, fromTransport: true) }
    }

    /// What a Courier transport's response body throws when reading it fails: as
    /// ``transportFailure(_:sending:to:)``, for the phase after `response` arrived (`… failed — transport
    /// failed: connection reset by peer (while receiving)`).
    static func transportFailure(
        _ error: any Error, receiving response: HTTPResponse, of request: HTTPRequest, from baseURL: URL
    ) -> any Error {
        transportFailure(error, of: request, baseURL: baseURL) { $0.receiving(error, response: response) }
    }

    private static func transportFailure(
        _ error: any Error, of request: HTTPRequest, baseURL: URL, describe: (FailureContext) -> APIError
    ) -> any Error {
        if error is CancellationError || error is APIError { return error }
        // `URLError(.cancelled)`, `HTTPClientError.cancelled`, or a failure because the task was cancelled.
        if Task.isCancelled || TransportFailure.classify(error)?.kind == .cancelled { return CancellationError() }
        let context = FailureContext(
            request: request, baseURL: baseURL.textWithoutTrailingSlash, redaction: .default)
        var apiError = describe(context)
        apiError.transportError = error
        return apiError
    }
}
