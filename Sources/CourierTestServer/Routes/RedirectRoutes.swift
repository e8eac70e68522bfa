import CourierDemoServer
import Hummingbird

/// Redirects, for tests of how a client follows them. Every method is accepted; a request body is ignored.
///
/// - `/redirect/to?url=<url>&status=<3xx>`: `status` (302 by default) with `Location: <url>`, as given (it
///   may be relative, another origin, or another scheme).
/// - `/redirect/count/{n}`: a chain of `n` redirects on this origin (`302` to `/redirect/count/{n-1}`, the last
///   one to `/echo/redirected`). `n` = 0 is a chain of none: `200` at once, with a text body. An `n` that is
///   not an integer ≥ 0 is `400`, with a JSON message saying so.
/// - `/redirect/loop`: `302` back to itself, forever.
enum RedirectRoutes {
    static func add(to router: Router<DemoContext>) {
        for method in [HTTPRequest.Method.get, .head, .post, .put, .patch, .delete] {
            router.on("/redirect/to", method: method) { request, _ in
                let query = QueryItems(request)
                guard let location = query["url"] else { throw BadRequest(message: "url is required") }
                let code = try query.integer("status", default: 302, in: 300...399)
                return redirect(to: location, code: code)
            }
            router.on("/redirect/count/{n}", method: method) { _, context in
                guard let remaining = context.parameters.get("n", as: Int.self), remaining >= 0 else {
                    throw BadRequest(message: "n must be an integer, 0 or more")
                }
                guard remaining > 0 else {
                    return DemoResponses.text("No redirects left\n", contentType: "text/plain; charset=utf-8")
                }
                return redirect(to: remaining > 1 ? "/redirect/count/\(remaining - 1)" : "/echo/redirected", code: 302)
            }
            router.on("/redirect/loop", method: method) { _, _ in redirect(to: "/redirect/loop", code: 302) }
        }
    }

    private static func redirect(to location: String, code: Int) -> Response {
        Response(
            status: ReasonPhrase.status(code),
            headers: [.location: location, .contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "Redirecting to \(location)\n")))
    }
}
