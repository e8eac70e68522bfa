public import Foundation

/// How an API wraps its payloads and reports failures inside successful responses.
///
/// Set one on the client (`$0.envelope = .successFlag`) or on an endpoint (`var envelope`). Write your own
/// in a few lines: decode your wrapper, throw ``EnvelopeFailure`` when it reports a failure, return the
/// payload otherwise.
/// ```swift
/// struct FlickrStat: ResponseEnvelope {
///     struct Status: Decodable {
///         let stat: String
///         let code: Int?
///         let message: String?
///     }
///
///     func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws -> T {
///         let status = try decoder.decode(Status.self, from: body)
///         guard status.stat == "ok" else {
///             throw EnvelopeFailure(code: status.code.map(String.init), message: status.message ?? "failed")
///         }
///         return try decoder.decode(T.self, from: body)
///     }
/// }
/// ```
public protocol ResponseEnvelope: Sendable {
    /// The payload of `body` as a `T`, or an ``EnvelopeFailure`` when the body reports a failure.
    func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws -> T
}

/// A failure an API reports in the body of a successful response (a "logical" error, as opposed to an
/// HTTP error status). Courier turns it into an ``APIError`` of kind ``APIError/Kind/logicalError``.
public struct EnvelopeFailure: Error, Sendable, CustomStringConvertible {
    /// The API's error code, if it gives one.
    public var code: String?
    /// The API's message.
    public var message: String
    /// The API's decoded error object, if any; it becomes ``APIError/errorBody``.
    public var error: (any Sendable)?

    /// Creates a failure.
    public init(code: String? = nil, message: String, error: (any Sendable)? = nil) {
        self.code = code
        self.message = message
        self.error = error
    }

    /// `message (code 1001)`.
    public var description: String { code.map { "\(message) (code \($0))" } ?? message }
}

/// No envelope: the body is the payload. Lets an endpoint opt out of the client's envelope.
public struct NoEnvelope: ResponseEnvelope {
    /// Creates the identity envelope.
    public init() {}

    /// Decodes the body itself.
    public func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws
        -> T
    {
        try decoder.decode(type, from: body)
    }
}

extension ResponseEnvelope where Self == NoEnvelope {
    /// No envelope: the body is the payload.
    public static var noEnvelope: NoEnvelope { NoEnvelope() }
}

/// `nil` as a `T` when `T` is an `Optional`, for envelopes whose payload may be `null`.
func nilPayload<T>(as type: T.Type) -> T? {
    guard let optional = T.self as? any ExpressibleByNilLiteral.Type else { return nil }
    return optional.init(nilLiteral: ()) as? T
}
