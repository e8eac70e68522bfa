import CourierDemoServer
import Hummingbird

/// XML bodies, for clients with a non-JSON decoder (`Content-Type: application/xml; charset=utf-8`):
///
/// - `GET /testing/xml/user` → `<?xml version="1.0" encoding="UTF-8"?><user><login>octocat</login>
///   <id>583231</id></user>` (no whitespace between elements).
/// - `POST /testing/xml/users` with `<user><login>…</login><id>…</id></user>` (see ``FlatXML`` for what
///   is accepted) → `201` echoing the login and id in the same shape; a malformed document, another root,
///   a missing login or a non-integer id → `400 <error><message>…</message></error>`.
/// - `GET /testing/xml/buckets/{name}` → `404` with an S3-style error document,
///   `<Error><Code>NoSuchBucket</Code><Message>…</Message><BucketName>{name}</BucketName></Error>`.
enum XMLRoutes {
    static let contentType = "application/xml; charset=utf-8"

    static func add(to router: Router<DemoContext>) {
        router.get("/testing/xml/user") { _, _ in
            DemoResponses.text(user(login: "octocat", id: 583231), contentType: contentType)
        }
        router.post("/testing/xml/users") { request, _ in
            let body = try await request.body.collect(upTo: 1024 * 1024)
            let text = String(decoding: body.readableBytesView, as: UTF8.self)
            let document: FlatXML
            do throws(FlatXML.ParseError) {
                document = try FlatXML(text)
            } catch {
                return failure("malformed XML: \(error.message)")
            }
            guard document.root == "user" else { return failure("expected a <user> element") }
            guard let login = document["login"], !login.isEmpty else { return failure("<login> is required") }
            guard let idText = document["id"], let id = Int(idText.trimmingSpaces()) else {
                return failure("<id> must be an integer")
            }
            return DemoResponses.text(user(login: login, id: id), contentType: contentType, status: .created)
        }
        router.get("/testing/xml/buckets/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            let document =
                #"<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchBucket</Code>"#
                + "<Message>The specified bucket does not exist</Message><BucketName>"
                + FlatXML.escape(name) + "</BucketName></Error>"
            return DemoResponses.text(document, contentType: contentType, status: .notFound)
        }
    }

    static func user(login: String, id: Int) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><user><login>"# + FlatXML.escape(login)
            + "</login><id>\(id)</id></user>"
    }

    static func failure(_ message: String) -> Response {
        let document =
            #"<?xml version="1.0" encoding="UTF-8"?><error><message>"# + FlatXML.escape(message)
            + "</message></error>"
        return DemoResponses.text(document, contentType: contentType, status: .badRequest)
    }
}
