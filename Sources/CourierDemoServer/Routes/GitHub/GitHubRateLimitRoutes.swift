import Hummingbird

/// `GET /rate_limit`, as on GitHub: the caller's buckets without counting the request,
/// `{"resources": {"core": Quota, "search": Quota}, "rate": Quota}` where a quota is
/// `{"limit", "remaining", "reset", "used", "resource"}`; the `X-RateLimit-*` headers describe `core`.
/// A wrong token gets `401 Bad credentials`.
///
/// `POST /testing/github/rate-limit/reset` (not GitHub's) empties every bucket → `204`.
enum GitHubRateLimitRoutes {
    struct RateLimits: Encodable {
        struct Resources: Encodable {
            let core: GitHubRateLimiter.Quota
            let search: GitHubRateLimiter.Quota
        }

        let resources: Resources
        let rate: GitHubRateLimiter.Quota
    }

    static func add(to router: Router<DemoContext>, limiter: GitHubRateLimiter) {
        router.get("/rate_limit") { request, _ in
            let identity = GitHubIdentity(request)
            let authenticated = identity == .authenticated
            let core = limiter.peek(.core, authenticated: authenticated)
            let search = limiter.peek(.search, authenticated: authenticated)
            var response: Response
            if identity == .invalid {
                response = try GitHubErrorBody.badCredentials.response(status: .unauthorized)
            } else {
                response = try DemoResponses.json(RateLimits(resources: .init(core: core, search: search), rate: core))
            }
            GitHubRateLimitMiddleware.addHeaders(for: core, to: &response)
            return response
        }
        router.post("/testing/github/rate-limit/reset") { _, _ in
            limiter.reset()
            return Response(status: .noContent)
        }
    }
}
