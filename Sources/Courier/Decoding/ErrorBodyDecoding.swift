import Foundation

/// How the body of an unacceptable response becomes the API's error: through the request's envelope first
/// (an envelope that reports a failure names it), then as the request's error-body type, decoded with the
/// request's decoder (JSON, XML, … whatever the endpoint or client uses for success bodies).
struct ErrorBodyDecoding {
    /// The error-body type: the route's, else the client's; `nil` when neither names one.
    let type: (any (Decodable & Sendable).Type)?
    /// The decoder: the endpoint's, else the client's.
    let decoder: any ResponseBodyDecoder
    /// The envelope: the endpoint's, else the client's.
    let envelope: (any ResponseEnvelope)?

    enum Outcome {
        /// The API's error, with a message when it came from an envelope.
        case decoded(any Sendable, message: String?)
        /// An error-body type was named but the body is not one: the decoder's error says why.
        case mismatch(type: String, error: any Error)
        /// Nothing to decode with.
        case notAttempted
    }

    func decode(_ body: Data) -> Outcome {
        if let envelope, let failure = Self.failure(in: body, envelope: envelope, decoder: decoder) {
            return .decoded(failure.error ?? failure, message: failure.description)
        }
        guard let type else { return .notAttempted }
        do {
            return .decoded(try Self.decode(type, from: body, decoder: decoder), message: nil)
        } catch {
            return .mismatch(type: TypeNames.name(of: type), error: error)
        }
    }

    private static func decode<T: Decodable & Sendable>(
        _ type: T.Type, from body: Data, decoder: any ResponseBodyDecoder
    )
        throws -> any Sendable
    {
        try decoder.decode(type, from: body)
    }

    /// The failure the envelope reports in `body`, if it reports one.
    private static func failure(in body: Data, envelope: any ResponseEnvelope, decoder: any ResponseBodyDecoder)
        -> EnvelopeFailure?
    {
        do {
            _ = try envelope.unwrap(AnyPayload.self, from: body, using: decoder)
            return nil
        } catch {
            return error as? EnvelopeFailure
        }
    }

    /// A payload that decodes from anything, so only the envelope's own fields are read.
    private struct AnyPayload: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}
