public import Foundation

/// The envelope `{"success": true, "error": null, "response": …}`, whose failures read
/// `{"success": false, "error": {"errorMessage": "…", "errorCode": 1001}, "response": null}`.
///
/// `success: true` with `"response": null` decodes when the payload type is optional (`Article?`), and is
/// a decoding error otherwise.
public struct SuccessFlagEnvelope: ResponseEnvelope {
    /// The envelope's error object.
    public struct ErrorInfo: Decodable, Sendable, Equatable, CustomStringConvertible {
        /// The API's message.
        public let errorMessage: String
        /// The API's code.
        public let errorCode: Int?

        /// `errorMessage (code errorCode)`.
        public var description: String { errorCode.map { "\(errorMessage) (code \($0))" } ?? errorMessage }
    }

    private struct Wrapper<Payload: Decodable>: Decodable {
        let success: Bool
        let error: ErrorInfo?
        let response: Payload?
    }

    /// Creates the envelope.
    public init() {}

    /// The `response` payload, or an ``EnvelopeFailure`` carrying ``ErrorInfo`` when `success` is false.
    public func unwrap<T: Decodable>(_ type: T.Type, from body: Data, using decoder: any ResponseBodyDecoder) throws
        -> T
    {
        let wrapper = try decoder.decode(Wrapper<T>.self, from: body)
        guard wrapper.success else {
            let info =
                wrapper.error ?? ErrorInfo(errorMessage: "the API reported a failure without details", errorCode: nil)
            throw EnvelopeFailure(code: info.errorCode.map(String.init), message: info.errorMessage, error: info)
        }
        if let payload = wrapper.response { return payload }
        if let none = nilPayload(as: T.self) { return none }
        throw DecodingError.valueNotFound(
            T.self,
            .init(
                codingPath: [],
                debugDescription: "\"success\" is true but \"response\" is null; decode into \(T.self)? to accept that")
        )
    }
}

extension ResponseEnvelope where Self == SuccessFlagEnvelope {
    /// `{"success", "error": {"errorMessage", "errorCode"}, "response"}`.
    public static var successFlag: SuccessFlagEnvelope { SuccessFlagEnvelope() }
}
