import Foundation
import HTTPTypes

extension FailureContext {
    /// Maps an error thrown while sending: an ``APIError`` a middleware threw (kept, with the request filled
    /// in), cancellation of the calling task, a recognised network failure or timeout (see ``TransportFailure``),
    /// or any other failure of the transport or of a middleware.
    func sending(_ error: any Error, fromTransport: Bool) -> APIError {
        if var apiError = TransportFailure.unwrapped(error) as? APIError {
            if apiError.method == nil { apiError.method = request?.method }
            if apiError.url == nil { apiError.url = request.map { redaction.redact(url: baseURL + ($0.path ?? "")) } }
            return apiError
        }
        // A cancelled request's transport often fails as a closed connection: cancellation is what happened.
        if Task.isCancelled { return self.error(.cancelled, phase: .sending, underlying: error) }
        // A file being sent that went missing (a retry reopens it) or changed while it was read.
        if FileChunkReader.isFileFailure(TransportFailure.unwrapped(error)) {
            return self.error(.fileAccess, phase: .sending, underlying: error)
        }
        if let failure = TransportFailure.classify(error) {
            return self.error(failure.kind, phase: .sending, message: failure.reason, underlying: error)
        }
        return self.error(fromTransport ? .transport : .middleware, phase: .sending, underlying: error)
    }

    /// Maps an error thrown while the body was read.
    func receiving(_ error: any Error, response: HTTPResponse) -> APIError {
        // What the transport met, under the error a Courier transport made of it for callers outside a client.
        let error = TransportFailure.unwrapped(error)
        if let tooLarge = error as? BodyCollector.TooLarge {
            return self.error(.bodyTooLarge, phase: .receiving, message: tooLarge.description, response: response)
        }
        // A limit, not the network: the reader fell too far behind a transfer URLSession can't pause (Linux).
        if let readAhead = error as? ReadAheadExceeded {
            return self.error(
                .bodyTooLarge, phase: .receiving, message: readAhead.description, underlying: readAhead,
                response: response)
        }
        if let failure = error as? any StreamFailure {
            return self.error(failure.kind, phase: .receiving, message: failure.description, response: response)
        }
        if let failure = error as? ContentDecodingFailure {
            return self.error(.contentDecoding, phase: .receiving, message: failure.description, response: response)
        }
        if let failure = TransportFailure.classify(error) {
            return self.error(
                failure.kind, phase: .receiving, message: failure.reason, underlying: error, response: response)
        }
        let kind: APIError.Kind = Task.isCancelled ? .cancelled : .transport
        return self.error(kind, phase: .receiving, underlying: error, response: response)
    }
}
