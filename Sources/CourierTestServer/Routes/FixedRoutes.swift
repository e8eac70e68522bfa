import CourierDemoServer
import Hummingbird

/// Responses that never vary: `GET /no-content` (204, no body), `GET /empty` (200, `Content-Length: 0`),
/// `GET /text` (200, `text/plain` `hello, world`) and `GET /json/user` (`{"login":"octocat","id":1}`).
enum FixedRoutes {
    static func add(to router: Router<DemoContext>) {
        router.get("/no-content") { _, _ in
            Response(status: .noContent)
        }
        router.get("/empty") { _, _ in
            Response(status: .ok)
        }
        router.get("/text") { _, _ in
            DemoResponses.text("hello, world", contentType: "text/plain; charset=utf-8")
        }
        router.get("/json/user") { _, _ in
            DemoResponses.json(bytes: #"{"login":"octocat","id":1}"#.utf8)
        }
    }
}
