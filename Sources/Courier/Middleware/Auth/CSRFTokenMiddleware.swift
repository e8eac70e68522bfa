public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// Double-submit CSRF protection: copies a cookie the server set (Django's `csrftoken`, Jupyter Server's
/// `_xsrf`, Angular's `XSRF-TOKEN`) into a header (`X-CSRFToken`, `X-XSRFToken`, `X-XSRF-TOKEN`) on every
/// request that changes state (not `GET`, `HEAD`, `OPTIONS` or `TRACE`).
///
/// ```swift
/// let client = APIClient(baseURL: url, middlewares: [.csrfToken(cookie: "csrftoken", header: .xCSRFToken)]) {
///     $0.cookieJar = CookieJar()
/// }
/// ```
/// The client's cookie jar adds its cookies after middleware has run, so this middleware reads the cookie from
/// the jar itself (``MiddlewareContext/cookieJar``, or the `jar` you give), on every transport. Like
/// ``CredentialMiddleware``, it adds the header only for the base URL's origin and the `origins` named, never
/// replaces one the request has, and adds nothing while the server has not set the cookie. The header names
/// Courier knows are redacted by default.
public struct CSRFTokenMiddleware: ClientMiddleware {
    /// The cookie that holds the token.
    public let cookie: String
    /// The header the token is sent in.
    public let header: HTTPField.Name
    /// The jar to read; `nil` reads the client's.
    public let jar: CookieJar?
    /// Where the token goes besides the client's base URL's origin.
    public let origins: Set<Origin>

    /// Methods that change nothing (RFC 9110 §9.2.1), which a CSRF check lets through.
    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// A middleware copying `cookie` into `header`, from `jar` or the client's jar.
    public init(cookie: String, header: HTTPField.Name, jar: CookieJar? = nil, origins: Set<Origin> = []) {
        self.cookie = cookie
        self.header = header
        self.jar = jar
        self.origins = origins
    }

    /// Adds the header to a state-changing request, when the jar holds the cookie for its URL.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard !Self.safeMethods.contains(request.method), request.headerFields[header] == nil,
            CredentialScope.covers(request, baseURL: baseURL, origins: origins),
            let jar = jar ?? MiddlewareContext.current?.cookieJar,
            let url = URL(string: baseURL.textWithoutTrailingSlash + (request.path ?? "")),
            let token = jar.cookies(for: url).first(where: { $0.name == cookie })?.value
        else {
            return try await next(request, body, baseURL)
        }
        var request = request
        request.headerFields[header] = token
        return try await next(request, body, baseURL)
    }
}

extension ClientMiddleware where Self == CSRFTokenMiddleware {
    /// Double-submit CSRF protection: the value of `cookie`, from the client's jar (or `jar`), sent in
    /// `header` on state-changing requests to the base URL's origin and `origins`.
    public static func csrfToken(
        cookie: String, header: HTTPField.Name, jar: CookieJar? = nil, origins: Set<Origin> = []
    ) -> Self {
        CSRFTokenMiddleware(cookie: cookie, header: header, jar: jar, origins: origins)
    }
}
