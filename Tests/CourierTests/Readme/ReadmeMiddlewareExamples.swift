import Courier
import Foundation
import HTTPTypes
import Logging

/// The middleware stack UsingMiddleware.md shows (the `middleware` DOCC region), compiled.
enum ReadmeMiddlewareExamples {
    struct Grant: Decodable, Sendable {
        let token: String
        let expiresIn: Double
    }

    // BEGIN DOCC: middleware
    static func makeClient(baseURL: URL, email: String, password: String, logger: Logger) -> APIClient {
        // The refresh runs on a client WITHOUT the token middleware, so it never waits on itself.
        let auth = APIClient(baseURL: baseURL)
        let tokens = TokenStore { _ in
            let login = APIRequest<Grant>.post(
                "/auth/local", body: .form(["email": email, "password": password]))
            let grant = try await auth.send(login)
            return AuthToken(value: grant.token, expiresAt: Date().addingTimeInterval(grant.expiresIn))
        }
        return APIClient(
            baseURL: baseURL,
            middlewares: [
                .logging(logger, logsCURL: true),  // outermost: one entry per call, retries included
                .retry(.exponentialBackoff(maxAttempts: 4)),  // 408/429/5xx and network errors
                .throttle(maxConcurrent: 4, perSecond: 10),  // every attempt waits its turn
                .bearerToken(store: tokens),  // innermost: every attempt carries the current token
            ]
        ) { $0.timeout = .seconds(30) }
    }
    // END DOCC: middleware
}
