public import Courier
public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// A client for an API that wraps every answer in `{"success", "error": {"errorMessage", "errorCode"},
/// "response"}`. Logical failures (`"success": false`) are ``Courier/APIError``s of kind
/// `.logicalError` carrying ``Courier/SuccessFlagEnvelope/ErrorInfo``; HTTP failures stay HTTP failures.
///
/// It logs in by itself (and again when the session expires) through a ``Courier/TokenStore``, and sends at
/// most `maxConcurrent` requests at once.
/// ```swift
/// let api = ArticlesClient(baseURL: url, username: "demo", password: password)
/// let articles = try await api.articles(page: 1)
/// ```
public struct ArticlesClient: Sendable {
    let client: APIClient
    /// The store holding the access token.
    public let tokens: TokenStore

    /// A client that logs in as `username`.
    /// - Parameter maxConcurrent: the most requests in flight at once; 2 by default.
    public init(
        baseURL: URL, username: String, password: Secret, maxConcurrent: Int = 2,
        transport: any ClientTransport = DefaultTransport.make(), middlewares: [any ClientMiddleware] = []
    ) {
        // BEGIN DOCC: articles client
        let configure: @Sendable (inout APIClient.Configuration) -> Void = {
            $0.envelope = .successFlag
            $0.jsonDecoder.dateDecodingStrategy = .iso8601
        }
        // The login itself goes through a client without the token middleware.
        let auth = APIClient(baseURL: baseURL, transport: transport, configure: configure)
        let credentials = ArticleCredentials(username: username, password: password.value)
        tokens = TokenStore { _ in
            let session = try await auth.send(
                APIRequest<ArticleSession>.post("/envelope/login", body: .json(credentials)))
            return AuthToken(value: session.accessToken, expiresAt: Date().addingTimeInterval(session.expiresIn))
        }
        client = APIClient(
            baseURL: baseURL, transport: transport,
            middlewares: middlewares + [.throttle(maxConcurrent: maxConcurrent), .bearerToken(store: tokens)],
            configure: configure)
        // END DOCC: articles client
    }

    /// A page of articles (10 per page).
    public func articles(page: Int = 1, delay: Duration? = nil) async throws(APIError) -> [Article] {
        var query: Query = ["page": page]
        if let delay {
            query["delayMs"] = .init(
                Int(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000))
        }
        return try await client.send(APIRequest<[Article]>.get("/envelope/articles", query: query))
    }

    /// One article; an unknown id is a logical error (code 1004).
    public func article(id: Int) async throws(APIError) -> Article {
        try await client.send(APIRequest<Article>.get("/envelope/articles/\(id)"))
    }

    /// The profile picture, or `nil` when there is none (`"success": true, "response": null`).
    public func avatar() async throws(APIError) -> Avatar? {
        try await client.send(APIRequest<Avatar?>.get("/envelope/profile/avatar"))
    }
}
