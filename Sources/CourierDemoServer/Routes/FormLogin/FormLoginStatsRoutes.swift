import Hummingbird

/// `GET /auth/stats` → `{"logins", "refreshes", "meRequests", "unauthorized", "brokenRefreshes",
/// "always401"}` for this server instance (`logins` and `refreshes` count successes; `unauthorized` counts
/// the `401`s of `/me` and `/auth/refresh`). `POST /auth/stats/reset` zeroes them → `204`.
enum FormLoginStatsRoutes {
    static func add(to router: Router<DemoContext>, store: FormLoginStore) {
        router.get("/auth/stats") { _, _ in
            try DemoResponses.json(store.stats)
        }
        router.post("/auth/stats/reset") { _, _ in
            store.resetStats()
            return Response(status: .noContent)
        }
    }
}
