public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Adds a fixed credential to every request: an API key as a query item or header, a bearer token, or
/// HTTP basic authentication. Works with ``APIClient`` and with swift-openapi-generator clients alike.
///
/// ```swift
/// let flickr = APIClient(baseURL: url, middlewares: [.apiKey(key, queryItem: "api_key")])
/// let github = APIClient(baseURL: url, middlewares: [.bearerToken(token)])
/// let basic = APIClient(baseURL: url, middlewares: [.basicAuth(username: "ada", password: password)])
/// ```
/// The names these use (`Authorization`, the API-key item) are redacted in errors and logs by default;
/// add a custom header or item name to ``Redaction`` if you choose one the defaults don't cover.
public struct CredentialMiddleware: ClientMiddleware {
    enum Placement: Sendable {
        case header(HTTPField.Name, String)
        case queryItem(String, String)
    }

    let placement: Placement

    /// Adds the credential and passes the request on. A header replaces one of the same name; a query item is
    /// appended unless the request already has one of that name.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        switch placement {
        case .header(let name, let value):
            request.headerFields[name] = value
        case .queryItem(let name, let value):
            request.path = Self.appending(name: name, value: value, to: request.path ?? "")
        }
        return try await next(request, body, baseURL)
    }

    /// `path` with `name=value` (percent-encoded) added to its query, unless an item of that name is there.
    static func appending(name: String, value: String, to path: String) -> String {
        let encodedName = PercentEncoding.unreserved.encode(name)
        if let mark = path.firstIndex(of: "?") {
            let pairs = EncodedQueryPair.split(path[path.index(after: mark)...])
            if pairs.contains(where: { $0.encodedName == encodedName }) { return path }
        }
        let separator = path.contains("?") ? "&" : "?"
        return path + separator + encodedName + "=" + PercentEncoding.unreserved.encode(value)
    }
}

extension ClientMiddleware where Self == CredentialMiddleware {
    /// Sends `Authorization: Bearer <token>` with every request.
    public static func bearerToken(_ token: String) -> Self {
        CredentialMiddleware(placement: .header(.authorization, "Bearer \(token)"))
    }

    /// Sends HTTP basic authentication (`Authorization: Basic base64(username:password)`).
    public static func basicAuth(username: String, password: String) -> Self {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        return CredentialMiddleware(placement: .header(.authorization, "Basic \(credentials)"))
    }

    /// Sends an API key in a header field, such as `X-API-Key`.
    public static func apiKey(_ key: String, header name: HTTPField.Name) -> Self {
        CredentialMiddleware(placement: .header(name, key))
    }

    /// Sends an API key as a query item, such as `?api_key=…`.
    public static func apiKey(_ key: String, queryItem name: String) -> Self {
        CredentialMiddleware(placement: .queryItem(name, key))
    }
}
