import CourierDemoServer
import HTTPTypes
import Hummingbird

/// `GET /headers/set?Name=value&...`: `{}` with each query item added as a response header, in order
/// (repeated names give repeated fields), for tests that need `Retry-After`, `Link` and the like.
///
/// Names and values are percent-decoded. `Content-Type` replaces the default `application/json`;
/// the framing headers `Content-Length`, `Transfer-Encoding` and `Connection` are refused with `400`.
enum HeadersRoute {
    static let framingHeaders: [HTTPField.Name] = [.contentLength, .transferEncoding, .connection]

    static func add(to router: Router<DemoContext>) {
        router.get("/headers/set") { request, _ in
            var response = try DemoResponses.json([String: String]())
            for item in QueryItems(request).items {
                guard let name = HTTPField.Name(item.name) else {
                    throw BadRequest(message: "invalid header name: \(item.name)")
                }
                guard !framingHeaders.contains(name) else {
                    throw BadRequest(message: "cannot set the framing header \(item.name)")
                }
                if name == .contentType {
                    response.headers[.contentType] = item.value
                } else {
                    response.headers.append(HTTPField(name: name, value: item.value))
                }
            }
            return response
        }
    }
}
