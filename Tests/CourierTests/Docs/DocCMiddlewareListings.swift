import Courier
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// The listings of the DocC articles on middleware (authentication, retries, logging, throttling, writing
/// middleware), compiled. `DocCListingTests` checks that every listing in the catalog is one of these regions.
enum AuthenticationListings {
    struct Grant: Decodable, Sendable {
        let token: String
        let expiresIn: TimeInterval
        let refreshToken: String?
    }
    struct RefreshToken: Endpoint {
        typealias Response = Grant
        let refreshToken: String
        var method: HTTPRequest.Method { .post }
        var path: RoutePath { "/auth/refresh" }
        var body: RequestBody { .form(["refresh_token": refreshToken]) }
    }

    // swift-format-ignore: NeverForceUnwrap
    static func fixedCredentials(url: URL, key: String, token: String, password: String) -> [APIClient] {
        // BEGIN DOCC: fixed credentials
        let flickr = APIClient(baseURL: url, middlewares: [.apiKey(key, queryItem: "api_key")])
        let keyed = APIClient(baseURL: url, middlewares: [.apiKey(key, header: HTTPField.Name("X-API-Key")!)])
        let github = APIClient(baseURL: url, middlewares: [.bearerToken(token)])
        let basic = APIClient(baseURL: url, middlewares: [.basicAuth(username: "ada", password: password)])
        // END DOCC: fixed credentials
        return [flickr, keyed, github, basic]
    }

    static func refreshingTokens(url: URL) -> APIClient {
        // BEGIN DOCC: refreshing tokens
        let auth = APIClient(baseURL: url)  // no token middleware: the refresh never waits on itself
        let tokens = TokenStore { expired in
            let grant = try await auth.send(RefreshToken(refreshToken: expired?.refreshToken ?? ""))
            return AuthToken(
                value: grant.token, expiresAt: Date().addingTimeInterval(grant.expiresIn),
                refreshToken: grant.refreshToken)
        }
        let client = APIClient(baseURL: url, middlewares: [.bearerToken(store: tokens)])
        // END DOCC: refreshing tokens
        return client
    }
}

enum RetriesListings {
    static func retrying(url: URL) -> APIClient {
        // BEGIN DOCC: retries
        let client = APIClient(
            baseURL: url, middlewares: [.retry(.exponentialBackoff(maxAttempts: 4, deadline: .seconds(20)))])
        // END DOCC: retries
        return client
    }
}

enum LoggingListings {
    static func logging(url: URL) -> APIClient {
        // BEGIN DOCC: logging
        var logger = Logger(label: "api")
        logger.logLevel = .debug
        let client = APIClient(baseURL: url, middlewares: [.logging(logger, logsCURL: true)])
        // END DOCC: logging
        return client
    }
}

enum ThrottlingListings {
    static func throttled(url: URL) -> APIClient {
        // BEGIN DOCC: throttling
        let client = APIClient(baseURL: url, middlewares: [.throttle(maxConcurrent: 2, perSecond: 5)])
        // END DOCC: throttling
        return client
    }
}

enum WritingMiddlewareListings {
    // swift-format-ignore: NeverForceUnwrap
    // BEGIN DOCC: request ID middleware
    struct RequestIDMiddleware: ClientMiddleware {
        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            var request = request
            request.headerFields[HTTPField.Name("X-Request-ID")!] = UUID().uuidString
            return try await next(request, body, baseURL)
        }
    }
    // END DOCC: request ID middleware
}
