import Foundation
import HTTPTypes

/// A ``Route`` paired with the type its response decodes to, so that router enums are sent like endpoints.
struct RouteEndpoint<Base: Route, Response: Sendable>: Endpoint {
    let route: Base

    var method: HTTPRequest.Method { route.method }
    var path: RoutePath { route.path }
    var query: Query { get throws { try route.query } }
    var headers: HTTPFields { route.headers }
    var body: RequestBody { get throws { try route.body } }
    var acceptableStatuses: AcceptableStatuses? { route.acceptableStatuses }
    var timeout: Duration? { route.timeout }
    var attemptTimeout: Duration? { route.attemptTimeout }
    var errorBody: (any (Decodable & Sendable).Type)? { route.errorBody }
    var operationID: String { route.operationID }
    func prepare(_ request: inout HTTPRequest) throws { try route.prepare(&request) }

    func decode(_ body: Data, context: ResponseContext) throws -> Response {
        if let decodable = Response.self as? any Decodable.Type {
            return try Self.decode(decodable, body: body, context: context)
        }
        // `Void`: the body is ignored.
        if let nothing = () as? Response { return nothing }
        throw DecodingError.typeMismatch(
            Response.self, .init(codingPath: [], debugDescription: "\(Response.self) is neither Decodable nor Void."))
    }

    private static func decode<T: Decodable>(_ type: T.Type, body: Data, context: ResponseContext) throws -> Response {
        let value = try ResponseDecoding.decode(type, from: body, context: context)
        guard let response = value as? Response else {
            throw DecodingError.typeMismatch(Response.self, .init(codingPath: [], debugDescription: "Unexpected type."))
        }
        return response
    }
}
