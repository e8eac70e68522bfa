import CourierDemoServer
import Foundation
import Hummingbird

/// `/echo` and everything under `/echo/`, any method: a JSON description of exactly what arrived.
///
/// The path and query are the raw bytes of the request line (still percent-encoded), the headers keep
/// their order and spelling, and the body comes back as base64 (and as text when it is UTF-8). A query item
/// `echo_status=NNN` answers with that status instead of 200 (an error page that quotes the request).
/// Bodies of up to 64 MiB are read; larger ones get `413 Payload Too Large`.
struct EchoMiddleware<Context: RequestContext>: RouterMiddleware {
    static var maximumBodySize: Int { 64 * 1024 * 1024 }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let target = RawRequestTarget(request)
        guard target.path == "/echo" || target.path.hasPrefix("/echo/") else {
            return try await next(request, context)
        }
        let body = try await request.body.collect(upTo: Self.maximumBodySize)
        let bytes = Data(body.readableBytesView)
        let echo = EchoedRequest(
            method: request.method.rawValue,
            path: String(target.path),
            query: target.query.map(String.init),
            headers: Self.headersAsReceived(request),
            body: bytes.base64EncodedString(),
            bodyText: String(validating: bytes, as: UTF8.self),
            bodyLength: bytes.count
        )
        guard let code = QueryItems(request)["echo_status"].flatMap(Int.init), (200...599).contains(code) else {
            return try DemoResponses.json(echo)
        }
        return try DemoResponses.json(
            echo, status: ReasonPhrase.status(code))
    }

    /// The header fields in arrival order with their names as spelled on the wire.
    ///
    /// HTTP/1 parsing moves `Host` out of the fields into the request's authority, losing its position
    /// and spelling; it is put back first (where clients send it) as `Host`.
    private static func headersAsReceived(_ request: Request) -> [[String]] {
        let host = request.head.authority.map { [["Host", $0]] } ?? []
        return host + request.headers.map { [$0.name.rawName, $0.value] }
    }
}

/// The JSON body of an echo response; absent query and non-UTF-8 body text are `null`, not omitted.
struct EchoedRequest: Encodable {
    let method: String
    let path: String
    let query: String?
    let headers: [[String]]
    let body: String
    let bodyText: String?
    let bodyLength: Int

    private enum CodingKeys: String, CodingKey {
        case method, path, query, headers, body, bodyText, bodyLength
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(method, forKey: .method)
        try container.encode(path, forKey: .path)
        try container.encode(query, forKey: .query)
        try container.encode(headers, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encode(bodyText, forKey: .bodyText)
        try container.encode(bodyLength, forKey: .bodyLength)
    }
}
