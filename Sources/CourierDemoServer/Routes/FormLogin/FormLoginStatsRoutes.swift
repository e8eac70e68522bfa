import Hummingbird

/// `GET /auth/stats` → `{"logins", "refreshes", "meRequests", "unauthorized", "brokenRefreshes",
/// "always401"}` for this server instance (`logins` and `refreshes` count successes; `unauthorized` counts
/// the `401`s of `/me` and `/auth/refresh`). `POST /auth/stats/reset` zeroes them → `204`.
/// `POST /auth/expire` with `Authorization: Bearer <token>` expires that access token now → `204` (`404` for a
/// token never issued), so tests see a token expire without waiting for its lifetime.
enum FormLoginStatsRoutes {
    static func add(to router: Router<DemoContext>, store: FormLoginStore) {
        router.get("/auth/stats") { _, _ in
            try DemoResponses.json(store.stats)
        }
        router.post("/auth/stats/reset") { _, _ in
            store.resetStats()
            return Response(status: .noContent)
        }
        router.post("/auth/expire") { request, _ in
            guard let token = AuthorizationHeader.bearerToken(of: request), store.expire(token) else {
                return Response(status: .notFound)
            }
            return Response(status: .noContent)
        }
    }
}
