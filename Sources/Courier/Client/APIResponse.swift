public import Foundation
public import HTTPTypes

/// A decoded value together with the response it came from.
///
/// ```swift
/// let response = try await client.response(GetUser(login: "octocat"))
/// print(response.value.login, response.status.code, response.headerFields[.eTag] ?? "")
/// ```
public struct APIResponse<Value: Sendable>: Sendable {
    /// The decoded body.
    public let value: Value
    /// The response head: status and header fields.
    public let response: HTTPResponse
    /// The request as Courier built it, before middleware (its path is relative to the base URL). After
    /// redirects, the last one: its `scheme` and `authority` then say where it went.
    public let request: HTTPRequest
    /// The raw body bytes the value was decoded from (empty for downloads).
    public let body: Data
    /// The client's base URL, without a trailing `/`.
    let baseURL: URL
    /// The redirects followed on the way to this response, in order (empty when there were none); URLs
    /// redacted.
    public internal(set) var redirects: [Redirect] = []
    /// Whether it came from the network, from the client's ``HTTPCache``, or from the cache after a `304`.
    public internal(set) var cacheStatus: CacheStatus = .network
    /// The HTTP version the response came over (`HTTP/2` over TLS where the server offers it), when the
    /// transport says: ``HTTPClientTransport`` does; URLSession and other transports don't, and a response from
    /// the cache has none.
    public internal(set) var httpProtocol: HTTPProtocol? = nil

    /// The full URL the request was sent to (unredacted: it may hold an API key).
    public var url: URL? { URL(string: baseURL.absoluteString + (request.path ?? "")) }

    /// The response status.
    public var status: HTTPResponse.Status { response.status }
    /// The response header fields.
    public var headerFields: HTTPFields { response.headerFields }
}
