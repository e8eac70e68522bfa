import Foundation
import HTTPTypes

extension APIError {
    /// What a Courier transport throws when `request` to `baseURL` fails: an ``APIError`` that names the
    /// method and the URL (its secret query values and credentials redacted with ``Redaction/default``) and
    /// says what happened in words, made by the same classifier as the client's errors
    /// (``FailureContext/sending(_:fromTransport:)``), so a generated client that shows its transport's error
    /// as it is reads `GET http://127.0.0.1:1/items failed — connection refused`, not a SwiftNIO dump.
    ///
    /// A cancellation stays a `CancellationError`, and an ``APIError`` stays as it is. The error the transport
    /// met is kept (``transportError``), so an ``APIClient`` maps it again with its own redaction and context,
    /// and its errors are the same whichever transport threw.
    static func transportFailure(_ error: any Error, sending request: HTTPRequest, to baseURL: URL) -> any Error {
        if error is CancellationError || error is APIError { return error }
        let context = FailureContext(
            request: request, baseURL: baseURL.textWithoutTrailingSlash, redaction: .default)
        var apiError = context.sending(error, fromTransport: true)
        apiError.transportError = error
        return apiError
    }
}
