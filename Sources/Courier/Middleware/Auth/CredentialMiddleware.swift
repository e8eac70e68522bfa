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
///
/// A credential goes only to the origin of the client's base URL (``MiddlewareContext/baseOrigin``), never
/// to an absolute URL, next-page link or redirect elsewhere; name more origins with `origins:`. Under a
/// client that binds no ``MiddlewareContext`` (a generated client), it goes with every request.
public struct CredentialMiddleware: ClientMiddleware {
    enum Placement: Sendable {
        case header(HTTPField.Name, String)
        case queryItem(String, String)
    }

    let placement: Placement
    /// Where the credential goes besides the client's base URL's origin.
    let origins: Set<Origin>

    /// Adds the credential and passes the request on. A header replaces one of the same name; a query item is
    /// appended unless the request already has one of that name.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard CredentialScope.covers(request, baseURL: baseURL, origins: origins) else {
            return try await next(request, body, baseURL)
        }
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
    /// Sends `Authorization: Bearer <token>` with every request to the base URL's origin and `origins`.
    public static func bearerToken(_ token: String, origins: Set<Origin> = []) -> Self {
        CredentialMiddleware(placement: .header(.authorization, "Bearer \(token)"), origins: origins)
    }

    /// Sends HTTP basic authentication (`Authorization: Basic base64(username:password)`) to the base URL's
    /// origin and `origins`.
    public static func basicAuth(username: String, password: String, origins: Set<Origin> = []) -> Self {
        CredentialMiddleware(
            placement: .header(
                .authorization, CredentialMiddleware.basicAuthorization(username: username, password: password)),
            origins: origins)
    }

    /// Sends an API key in a header field, such as `X-API-Key`, to the base URL's origin and `origins`.
    public static func apiKey(_ key: String, header name: HTTPField.Name, origins: Set<Origin> = []) -> Self {
        CredentialMiddleware(placement: .header(name, key), origins: origins)
    }

    /// Sends an API key as a query item, such as `?api_key=…`, to the base URL's origin and `origins`.
    public static func apiKey(_ key: String, queryItem name: String, origins: Set<Origin> = []) -> Self {
        CredentialMiddleware(placement: .queryItem(name, key), origins: origins)
    }
}

extension CredentialMiddleware {
    /// `Basic base64(username:password)`, the `Authorization` value of HTTP basic authentication (RFC 7617);
    /// also OAuth's client authentication, which form-encodes both parts first.
    static func basicAuthorization(username: String, password: String) -> String {
        "Basic \(Data("\(username):\(password)".utf8).base64EncodedString())"
    }
}

/// Whether a credential belongs on a request: the one rule ``CredentialMiddleware`` and
/// ``TokenRefreshMiddleware`` share.
enum CredentialScope {
    /// Whether `request`, sent relative to `baseURL`, goes to the client's base origin or one of `origins`.
    /// A request without an authority goes to the base URL (the common case, decided without parsing).
    /// Without a ``MiddlewareContext`` (a generated client), every request is covered.
    static func covers(_ request: HTTPRequest, baseURL: URL, origins: Set<Origin>) -> Bool {
        guard request.authority != nil, let context = MiddlewareContext.current else { return true }
        guard let origin = Origin(baseURL) else { return false }
        return origin == context.baseOrigin || origins.contains(origin)
    }
}
