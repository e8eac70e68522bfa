import Hummingbird

/// Every counter family at once, for debugging and for tests that own their server instance:
///
/// - `GET /testing/stats` → `{"auth": {…}, "envelope": {…}, "downloads": {…}, "flakyKeys": n}` (the same
///   objects the per-family stats routes return).
/// - `POST /testing/stats/reset` → `204`, resetting every family: auth, envelope and download counters, all
///   flaky keys, and the GitHub-style rate limits. Tokens and short URLs are kept. Tests sharing a server
///   should reset their own family (or key) instead.
enum TestingStatsRoutes {
    struct AllStats: Encodable {
        let auth: FormLoginStore.Stats
        let envelope: ConcurrencyGauge
        let downloads: DownloadCounters.Counts
        let flakyKeys: Int
    }

    static func add(to router: Router<DemoContext>, state: DemoState) {
        router.get("/testing/stats") { _, _ in
            try DemoResponses.json(
                AllStats(
                    auth: state.formLogin.stats, envelope: state.envelope.articleRequests,
                    downloads: state.downloads.current, flakyKeys: state.flaky.keyCount))
        }
        router.post("/testing/stats/reset") { _, _ in
            state.formLogin.resetStats()
            state.envelope.resetStats()
            state.downloads.reset()
            state.flaky.reset()
            state.gitHubRateLimits.reset()
            return Response(status: .noContent)
        }
    }
}
