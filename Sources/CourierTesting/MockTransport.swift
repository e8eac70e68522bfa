public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

/// A `ClientTransport` that answers from stubs or a closure instead of the network, for unit tests.
///
/// Make one per client (there is no global registry, so tests can run in parallel). A request that no
/// stub matches fails with ``UnmatchedRequest``, whose description names the request and the stubs.
/// ```swift
/// let mock = MockTransport(stubs: [
///     .init(.get, "/users/octocat", json: #"{"login":"octocat","id":1}"#),
///     .init(.get, "/users/nobody", status: .notFound, json: #"{"message":"Not Found"}"#),
/// ])
/// let client = APIClient(baseURL: url, transport: mock)
/// _ = try await client.send(GetUser(login: "octocat"))
/// #expect(mock.requests.map(\.path) == ["/users/octocat"])
/// ```
public struct MockTransport: ClientTransport {
    /// Answers one request: return a response, or throw to simulate a transport failure.
    public typealias Handler = @Sendable (RecordedRequest) async throws -> (HTTPResponse, Data)

    private let handler: Handler
    private let log = RequestLog()

    /// A transport that answers every request with `handler`.
    public init(_ handler: @escaping Handler) { self.handler = handler }

    /// A transport that answers each request with the first stub that matches it.
    public init(stubs: [Stub]) {
        self.init { request in
            guard let stub = stubs.first(where: { $0.matches(request) }) else {
                throw UnmatchedRequest(request: request, stubs: stubs)
            }
            return (stub.response, stub.body)
        }
    }

    /// Every request sent so far, in order.
    public var requests: [RecordedRequest] { log.all }

    /// Records the request (with its body collected) and answers it.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var bytes = Data()
        if let body { bytes = try await Data(collecting: body, upTo: .max) }
        let recorded = RecordedRequest(head: request, body: bytes, baseURL: baseURL, operationID: operationID)
        log.append(recorded)
        try Task.checkCancellation()
        let (response, responseBody) = try await handler(recorded)
        return (response, HTTPBody(responseBody))
    }
}

extension MockTransport {
    /// A request as the transport received it.
    public struct RecordedRequest: Sendable {
        /// The request head; its path includes the query and is relative to ``baseURL``.
        public let head: HTTPRequest
        /// The body bytes (empty when there was none).
        public let body: Data
        /// The client's base URL.
        public let baseURL: URL
        /// The operation name the client passed.
        public let operationID: String

        /// The method.
        public var method: HTTPRequest.Method { head.method }
        /// The encoded path without the query.
        public var path: String { String((head.path ?? "").prefix { $0 != "?" }) }
        /// The encoded query without `?`, or `nil`.
        public var query: String? {
            guard let path = head.path, let mark = path.firstIndex(of: "?") else { return nil }
            return String(path[path.index(after: mark)...])
        }
        /// The header fields.
        public var headerFields: HTTPFields { head.headerFields }
        /// The query items, decoded (`+` stays `+`: Courier encodes a space as `%20`), in order.
        public var queryItems: [(name: String, value: String)] {
            guard let query else { return [] }
            return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
                return (name, value)
            }
        }
        /// The body as UTF-8 text.
        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    /// A canned answer for requests with a given method and path, and optionally query items and header
    /// fields.
    ///
    /// ```swift
    /// let mock = MockTransport(stubs: [
    ///     MockTransport.Stub(.get, "/search", json: secondPage).matching(query: ["page": "2"]),
    ///     MockTransport.Stub(.get, "/me", status: .unauthorized).matching(headers: [.authorization: "Bearer old"]),
    /// ])
    /// ```
    public struct Stub: Sendable, CustomStringConvertible {
        /// The method to match.
        public var method: HTTPRequest.Method
        /// The encoded path to match, without the query.
        public var path: String
        /// Query items the request must carry (decoded names and values, in any order, among any others).
        /// Empty by default: any query matches.
        public var query: [String: String] = [:]
        /// Header fields the request must carry with exactly these values, among any others. Empty by default.
        public var headers: HTTPFields = [:]
        /// The response head to return.
        public var response: HTTPResponse
        /// The body to return.
        public var body: Data

        /// A stub answering `method path` with `status`, `headerFields` and `body`.
        public init(
            _ method: HTTPRequest.Method, _ path: String, status: HTTPResponse.Status = .ok,
            headerFields: HTTPFields = [:], body: Data = Data()
        ) {
            self.method = method
            self.path = path
            self.response = HTTPResponse(status: status, headerFields: headerFields)
            self.body = body
        }

        /// A stub answering with a JSON body (`Content-Type: application/json`).
        public init(_ method: HTTPRequest.Method, _ path: String, status: HTTPResponse.Status = .ok, json: String) {
            self.init(
                method, path, status: status, headerFields: [.contentType: "application/json"], body: Data(json.utf8))
        }

        /// This stub, matching only requests that also carry `query`'s items (decoded, in any order).
        public func matching(query: [String: String]) -> Stub {
            var stub = self
            stub.query.merge(query) { $1 }
            return stub
        }

        /// This stub, matching only requests that also carry `headers` with these values.
        public func matching(headers: HTTPFields) -> Stub {
            var stub = self
            for field in headers { stub.headers[field.name] = field.value }
            return stub
        }

        func matches(_ request: RecordedRequest) -> Bool {
            guard request.method == method, request.path == path else { return false }
            if !query.isEmpty {
                let items = request.queryItems
                guard query.allSatisfy({ name, value in items.contains { $0.name == name && $0.value == value } })
                else { return false }
            }
            return headers.allSatisfy { request.headerFields[values: $0.name].contains($0.value) }
        }

        /// `GET /users/octocat?page=2 [Authorization] → 200`.
        public var description: String {
            var text = "\(method.rawValue) \(path)"
            if !query.isEmpty {
                text += "?" + query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            }
            if !headers.isEmpty { text += " [" + headers.map(\.name.rawName).joined(separator: ", ") + "]" }
            return text + " → \(response.status.code)"
        }
    }

    /// No stub matched a request.
    public struct UnmatchedRequest: Error, CustomStringConvertible {
        /// The request that matched nothing.
        public let request: RecordedRequest
        /// The stubs that were tried.
        public let stubs: [Stub]

        /// Names the request and lists the stubs.
        public var description: String {
            let tried = stubs.isEmpty ? "no stubs" : stubs.map(\.description).joined(separator: "; ")
            let target = request.query.map { "\(request.path)?\($0)" } ?? request.path
            return "MockTransport: no stub for \(request.method.rawValue) \(target) (stubs: \(tried))"
        }
    }
}

/// The requests one transport has seen.
private final class RequestLog: Sendable {
    private let entries = Mutex<[MockTransport.RecordedRequest]>([])
    func append(_ request: MockTransport.RecordedRequest) { entries.withLock { $0.append(request) } }
    var all: [MockTransport.RecordedRequest] { entries.withLock { $0 } }
}
