// BEGIN README: installation client
import Courier
import Foundation

/// What httpbin (https://httpbin.org) says it received.
struct Echo: Decodable, Sendable {
    let args: [String: String]
    let headers: [String: String]
    let json: [String: String]?
}

/// `GET /get?q=…&page=…`: a query built from variables.
struct Search: Endpoint {
    typealias Response = Echo
    let text: String
    let page: Int
    var path: RoutePath { "/get" }
    var query: Query { ["q": text, "page": page] }
}

/// `POST /anything/notes` with a JSON body.
struct CreateNote: Endpoint {
    typealias Response = Echo
    let title: String
    var method: HTTPRequest.Method { .post }
    var path: RoutePath { "/anything/notes" }
    var body: RequestBody { .json(["title": title]) }
}

/// `GET /bearer`: 200 with the token it saw, 401 without one.
struct CheckToken: Endpoint {
    struct Response: Decodable, Sendable { let authenticated: Bool }
    var path: RoutePath { "/bearer" }
}

/// A client for httpbin at `baseURL`, sending `token` as a bearer token when there is one.
func makeHTTPBinClient(baseURL: URL, token: String?) -> APIClient {
    var middlewares: [any ClientMiddleware] = [.retry()]
    if let token { middlewares.append(.bearerToken(token)) }
    return APIClient(baseURL: baseURL, middlewares: middlewares) {
        $0.defaultHeaders[.accept] = "application/json"
    }
}
// END README: installation client
