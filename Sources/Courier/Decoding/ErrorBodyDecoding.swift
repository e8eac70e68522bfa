import Foundation

/// How the body of an unacceptable response becomes the API's error.
///
/// 1. When the request names an error-body type (the route's, else the client's), the body is decoded into
///    it with the request's decoder (the endpoint's, else the client's); when the endpoint has a decoder of
///    its own and that fails, the client's decoder (its `bodyDecoder`, else its JSON decoder) is tried too (a
///    gateway in front of an XML API may answer errors in JSON).
/// 2. Otherwise, or when that fails, the request's envelope (if any) is asked whether the body reports a
///    failure; its error is the API's error.
/// 3. When neither gives an error, a named type that did not decode is reported with the decoder's reason.
struct ErrorBodyDecoding {
    /// The error-body type: the route's, else the client's; `nil` when neither names one.
    let type: (any (Decodable & Sendable).Type)?
    /// The endpoint's own decoder, if it has one.
    let endpointDecoder: (any ResponseBodyDecoder)?
    /// The client's decoder.
    let clientDecoder: any ResponseBodyDecoder
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
        var mismatch: (any Error)?
        if let type {
            do {
                return .decoded(try Self.decode(type, from: body, decoders: decoders), message: nil)
            } catch {
                mismatch = error
            }
        }
        if let envelope, let failure = Self.failure(in: body, envelope: envelope, decoder: decoders[0]) {
            return .decoded(failure.error ?? failure, message: failure.description)
        }
        guard let type, let mismatch else { return .notAttempted }
        return .mismatch(type: TypeNames.name(of: type), error: mismatch)
    }

    /// The endpoint's decoder first, then the client's.
    private var decoders: [any ResponseBodyDecoder] {
        endpointDecoder.map { [$0, clientDecoder] } ?? [clientDecoder]
    }

    /// `body` as a `T` by the first decoder that reads it; the first decoder's error when none does.
    private static func decode<T: Decodable & Sendable>(
        _ type: T.Type, from body: Data, decoders: [any ResponseBodyDecoder]
    ) throws -> any Sendable {
        var first: (any Error)?
        for decoder in decoders {
            do {
                return try decoder.decode(type, from: body)
            } catch {
                first = first ?? error
            }
        }
        throw first ?? DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "No decoder."))
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
