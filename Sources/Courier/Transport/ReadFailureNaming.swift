import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A Courier transport's response body whose read failures name the request, as its send failures do: a
/// connection reset halfway through a body reads `GET http://…/items failed — transport failed: connection
/// reset by peer (while receiving)` in a generated client too (``APIError/transportFailure(_:receiving:of:from:)``).
/// Inside an ``APIClient`` the phase that reads the body takes back what the transport met, as for sending.
struct ReadFailureNaming<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == HTTPBody.ByteChunk {
    typealias Element = HTTPBody.ByteChunk

    let base: Base
    let request: HTTPRequest
    let response: HTTPResponse
    let baseURL: URL

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let sequence: ReadFailureNaming

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                return try await base.next()
            } catch {
                throw APIError.transportFailure(
                    error, receiving: sequence.response, of: sequence.request, from: sequence.baseURL)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), sequence: self)
    }
}

extension HTTPBody {
    /// ``response(_:to:fields:)`` for a transport's `send`: the body of `response` to `request`, its read
    /// failures named (``ReadFailureNaming``).
    static func response<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, of response: HTTPResponse, to request: HTTPRequest, baseURL: URL
    ) -> HTTPBody? where Chunks.Element == ByteChunk {
        self.response(
            ReadFailureNaming(base: chunks, request: request, response: response, baseURL: baseURL),
            to: request.method, fields: response.headerFields)
    }
}
