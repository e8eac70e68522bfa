import CourierDemoServer
import Hummingbird

/// `GET /status/{code}`: a response with any status code from 100 to 599.
///
/// The body is empty unless asked for: `?body=json` gives `{"message": "<reason phrase>"}` (or
/// `?message=` when given), `?body=html` an HTML error page. Statuses that cannot carry a body
/// (1xx, 204, 304) never get one. A 1xx status cannot end an HTTP/1.1 exchange, so after sending it the
/// server closes the connection (the client fails at once instead of waiting for a final response).
/// An invalid code gets `400` with `{"message": "invalid status code"}`.
enum StatusRoutes {
    static func add(to router: Router<DemoContext>) {
        router.get("/status/{code}") { request, context in
            try response(codeText: context.parameters.get("code") ?? "", query: QueryItems(request))
        }
    }

    static func response(codeText: String, query: QueryItems) throws -> Response {
        guard codeText.utf8.count == 3,
            codeText.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let code = Int(codeText), (100...599).contains(code)
        else {
            throw BadRequest(message: "invalid status code")
        }
        let status = ReasonPhrase.status(code)
        let bodyKind = query["body"] ?? "none"
        guard ["none", "json", "html"].contains(bodyKind) else {
            throw BadRequest(message: "body must be json, html or none")
        }
        if code < 200 {
            return Response(status: status, body: ResponseBody { _ in throw CloseAfterInformationalHead() })
        }
        let mayHaveBody = code != 204 && code != 304
        switch bodyKind {
        case "json" where mayHaveBody:
            let message = query["message"] ?? status.reasonPhrase
            return try DemoResponses.json(DemoResponses.Message(message: message), status: status)
        case "html" where mayHaveBody:
            let page = "<html><body><h1>\(code) \(status.reasonPhrase)</h1></body></html>"
            return DemoResponses.text(page, contentType: "text/html; charset=utf-8", status: status)
        default:
            return Response(status: status)
        }
    }

    /// Closes the connection after a 1xx head, which no final response follows.
    struct CloseAfterInformationalHead: Error {}
}
