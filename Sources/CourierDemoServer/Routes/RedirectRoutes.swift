import Hummingbird

/// Redirects, for tests of how a client follows them. Every method is accepted; a request body is ignored.
///
/// - `/redirect/to?url=<url>&status=<3xx>`: `status` (302 by default) with `Location: <url>`, as given (it
///   may be relative, another origin, or another scheme).
/// - `/redirect/count/{n}`: a chain of `n` redirects on this origin, ending at `/echo/redirected`.
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
                let remaining = context.parameters.get("n", as: Int.self) ?? 0
                return redirect(to: remaining > 1 ? "/redirect/count/\(remaining - 1)" : "/echo/redirected", code: 302)
            }
            router.on("/redirect/loop", method: method) { _, _ in redirect(to: "/redirect/loop", code: 302) }
        }
    }

    private static func redirect(to location: String, code: Int) -> Response {
        Response(
            status: HTTPResponse.Status(code: code, reasonPhrase: ReasonPhrase.standard(for: code)),
            headers: [.location: location, .contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "Redirecting to \(location)\n")))
    }
}
