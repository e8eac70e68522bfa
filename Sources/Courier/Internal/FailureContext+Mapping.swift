import Foundation
import HTTPTypes

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension FailureContext {
    /// Classifies an error thrown while sending: cancellation, a timeout, an ``APIError`` a middleware threw
    /// (kept, with the request filled in), or a transport or middleware failure.
    func sending(_ error: any Error, fromTransport: Bool) -> APIError {
        if var apiError = error as? APIError {
            if apiError.method == nil { apiError.method = request?.method }
            if apiError.url == nil { apiError.url = request.map { redaction.redact(url: baseURL + ($0.path ?? "")) } }
            return apiError
        }
        if let kind = Self.interruption(error) { return self.error(kind, phase: .sending, underlying: error) }
        return self.error(fromTransport ? .transport : .middleware, phase: .sending, underlying: error)
    }

    /// Classifies an error thrown while the body was read.
    func receiving(_ error: any Error, response: HTTPResponse) -> APIError {
        if let tooLarge = error as? BodyCollector.TooLarge {
            return self.error(.bodyTooLarge, phase: .receiving, message: tooLarge.description, response: response)
        }
        let kind = Self.interruption(error) ?? .transport
        return self.error(kind, phase: .receiving, underlying: error, response: response)
    }

    /// `.cancelled` or `.timedOut` when `error` (or the current task's state) says so.
    static func interruption(_ error: any Error) -> APIError.Kind? {
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            default: break
            }
        }
        #if canImport(AsyncHTTPClient)
            if let clientError = error as? HTTPClientError,
                [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(clientError)
            {
                return .timedOut
            }
        #endif
        return Task.isCancelled ? .cancelled : nil
    }
}
