import Hummingbird

/// Fronts every GitHub-style route: rejects a wrong `Authorization` header with `401 Bad credentials`,
/// counts the request against ``GitHubRateLimiter``, answers `403` once the bucket is empty, and adds
/// `X-RateLimit-Limit`, `-Remaining`, `-Reset`, `-Used` and `-Resource` to every response.
struct GitHubRateLimitMiddleware: RouterMiddleware {
    typealias Context = DemoContext

    let limiter: GitHubRateLimiter
    let resource: GitHubRateLimiter.Resource

    func handle(
        _ request: Request,
        context: DemoContext,
        next: (Request, DemoContext) async throws -> Response
    ) async throws -> Response {
        let identity = GitHubIdentity(request)
        let authenticated = identity == .authenticated
        let (quota, allowed) = limiter.consume(resource, authenticated: authenticated)
        var response: Response
        if identity == .invalid {
            response = try GitHubErrorBody.badCredentials.response(status: .unauthorized)
        } else if !allowed {
            let client = authenticated ? String(GitHubUsers.octocat.id) : context.remoteAddress?.ipAddress ?? "unknown"
            let body = GitHubErrorBody.rateLimitExceeded(for: client, authenticated: authenticated)
            response = try body.response(status: .forbidden)
        } else {
            do {
                response = try await next(request, context)
            } catch let error as any HTTPResponseError {
                response = try error.response(from: request, context: context)
            }
        }
        Self.addHeaders(for: quota, to: &response)
        return response
    }

    /// Adds the `X-RateLimit-*` fields describing `quota`.
    static func addHeaders(for quota: GitHubRateLimiter.Quota, to response: inout Response) {
        response.headers[.rateLimitLimit] = String(quota.limit)
        response.headers[.rateLimitRemaining] = String(quota.remaining)
        response.headers[.rateLimitReset] = String(quota.reset)
        response.headers[.rateLimitUsed] = String(quota.used)
        response.headers[.rateLimitResource] = quota.resource
    }
}
