public import Foundation
public import HTTPTypes

/// A ``Route`` that knows what its response decodes to: describe an endpoint once, as a type.
///
/// ```swift
/// struct GetUser: Endpoint {
///     typealias Response = User  // any Decodable, or Void, Data, String
///     let login: String
///     var path: RoutePath { "/users/\(login)" }
/// }
/// let user = try await client.send(GetUser(login: "octocat"))
/// ```
/// `Decodable` responses are decoded with ``decoder`` (the client's `JSONDecoder` unless set); `Data`
/// returns the raw body, `String` the body as UTF-8, and `Void` ignores the body (for 204 or empty 200s).
/// Implement ``decode(_:context:)`` yourself for anything else.
public protocol Endpoint: Route {
    /// What a successful response decodes to.
    associatedtype Response: Sendable

    /// The decoder for this endpoint's bodies, success and error alike; `nil` (the default) uses the client's.
    var decoder: (any ResponseBodyDecoder)? { get }

    /// The envelope this endpoint's bodies come in (a failure it reports in an error body is the API's
    /// error); `nil` (the default) uses the client's. Use
    /// `.noEnvelope` to opt out of the client's.
    var envelope: (any ResponseEnvelope)? { get }

    /// Looks at a successful response before it is decoded; throw to reject it (an API that reports errors
    /// in a header, a signature to check). The error becomes ``APIError/Kind/rejected`` in phase
    /// ``APIError/Phase/inspecting``. Does nothing by default.
    func inspect(_ response: HTTPResponse, body: Data) throws

    /// Turns the collected success body into a ``Response``. Errors thrown here become
    /// ``APIError/Kind/decoding`` errors naming the endpoint's request.
    func decode(_ body: Data, context: ResponseContext) throws -> Response
}

/// What a decoder can see besides the body: the response head, the decoder and the envelope to use.
public struct ResponseContext: Sendable {
    /// The response's status and header fields.
    public let response: HTTPResponse
    /// The decoder chosen for this request (the endpoint's, else the client's).
    public let decoder: any ResponseBodyDecoder
    /// The envelope chosen for this request (the endpoint's, else the client's), if any.
    public let envelope: (any ResponseEnvelope)?
}

extension Endpoint {
    /// The client's decoder.
    public var decoder: (any ResponseBodyDecoder)? { nil }
    /// The client's envelope.
    public var envelope: (any ResponseEnvelope)? { nil }
    /// Accepts every successful response.
    public func inspect(_ response: HTTPResponse, body: Data) throws {}
}

extension Endpoint where Response: Decodable {
    /// Returns the body itself for `Data`, the body as UTF-8 for `String`, and otherwise decodes it with
    /// the context's decoder.
    public func decode(_ body: Data, context: ResponseContext) throws -> Response {
        try ResponseDecoding.decode(Response.self, from: body, context: context)
    }
}

extension Endpoint where Response == Void {
    /// Ignores the body.
    public func decode(_ body: Data, context: ResponseContext) throws {}
}
