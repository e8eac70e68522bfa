import Foundation
import HTTPTypes

/// A page reached through a link: `Base`'s request with the link's path and query, decoded as `Base` does.
struct LinkedPage<Base: Endpoint>: Endpoint {
    typealias Response = Base.Response

    let base: Base
    /// The link's path and query, already percent-encoded, relative to the client's base URL.
    let pathAndQuery: String

    /// `base`'s request sent to `link`, which must lie under `baseURL` (the client's, without a trailing `/`).
    init(base: Base, following link: URL, under baseURL: URL) throws(APIError) {
        let prefix = baseURL.absoluteString
        let target = link.absoluteString
        let rest = target.dropFirst(prefix.count)
        guard target.hasPrefix(prefix), rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else {
            var error = APIError(
                .invalidRequest, phase: .building, message: "the next-page link is not under the base URL \(prefix)")
            error.url = Redaction.default.redact(url: target)
            throw error
        }
        self.base = base
        self.pathAndQuery = String(rest)
    }

    var method: HTTPRequest.Method { base.method }
    var path: RoutePath { RoutePath(encoded: pathAndQuery) }
    var headers: HTTPFields { base.headers }
    var acceptableStatuses: AcceptableStatuses? { base.acceptableStatuses }
    var timeout: Duration? { base.timeout }
    var errorBody: (any (Decodable & Sendable).Type)? { base.errorBody }
    var operationID: String { base.operationID }
    var decoder: (any ResponseBodyDecoder)? { base.decoder }
    var envelope: (any ResponseEnvelope)? { base.envelope }

    func prepare(_ request: inout HTTPRequest) throws { try base.prepare(&request) }
    func inspect(_ response: HTTPResponse, body: Data) throws { try base.inspect(response, body: body) }

    func decode(_ body: Data, context: ResponseContext) throws -> Response {
        try base.decode(body, context: context)
    }
}
