public import Courier
public import Foundation

/// Flickr reports failures with HTTP 200 and `{"stat": "fail", …}`; this envelope turns them into
/// ``Courier/APIError``s of kind `.logicalError` carrying a ``FlickrFailure``.
public struct FlickrStatusEnvelope: ResponseEnvelope {
    private struct Status: Decodable {
        let stat: String
        let code: Int?
        let message: String?
    }

    /// Creates the envelope.
    public init() {}

    /// The whole body as `T` when `stat` is `ok`; a failure otherwise.
    public func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws
        -> T
    {
        let status = try decoder.decode(Status.self, from: body)
        guard status.stat == "ok" else {
            let failure = FlickrFailure(code: status.code ?? 0, message: status.message ?? "Flickr reported a failure")
            throw EnvelopeFailure(code: String(failure.code), message: failure.message, error: failure)
        }
        return try decoder.decode(T.self, from: body)
    }
}
