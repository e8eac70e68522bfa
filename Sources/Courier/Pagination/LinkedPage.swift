import Foundation
import HTTPTypes

/// A page reached through a link: `Base`'s request sent to the link's URL, decoded as `Base` does.
struct LinkedPage<Base: Endpoint>: Endpoint {
    typealias Response = Base.Response

    let base: Base
    /// The link: its path and query relative to the client's base URL when it lies under it, else the
    /// absolute URL, which the client sends only to an allowed origin (``APIClient/Configuration/allowedOrigins``).
    let path: RoutePath

    /// `base`'s request sent to `link`; `baseURL` is the client's, without a trailing `/`.
    init(base: Base, following link: URL, under baseURL: URL) {
        let prefix = baseURL.absoluteString
        let target = link.absoluteString
        let rest = target.dropFirst(prefix.count)
        self.base = base
        if target.hasPrefix(prefix), rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") {
            path = RoutePath(encoded: String(rest))
        } else {
            path = .url(link)
        }
    }

    var method: HTTPRequest.Method { base.method }
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

extension LinkedPage: TemplatedOperation {
    /// The operation the page continues, as metrics name it.
    var boundedOperationID: String { CallObserver.operation(of: base) }
    /// The template of the path the pages started from.
    var pathTemplate: String? { CallObserver.template(of: base) }
}
