import Hummingbird

/// Assembles every route the demo server serves, over one fresh ``DemoState``.
enum DemoRouter {
    /// A router with the example APIs and the tour's routes; each call has its own state. `adding` adds a
    /// server's own routes and middleware first (the test server's, see `CourierTestServer`).
    static func make(adding: DemoServer.Routes? = nil) -> Router<DemoContext> {
        let state = DemoState()
        let router = Router(context: DemoContext.self, options: .autoGenerateHeadEndpoints)
        adding?(router)
        addExampleAPIs(to: router, state: state)
        addTourRoutes(to: router, state: state)
        return router
    }

    /// The APIs the Courier example clients target.
    private static func addExampleAPIs(to router: Router<DemoContext>, state: DemoState) {
        ShortenerRoutes.add(to: router, store: state.shortURLs)
        let core = router.group().add(
            middleware: GitHubRateLimitMiddleware(limiter: state.gitHubRateLimits, resource: .core))
        GitHubUserRoutes.add(to: core)
        let search = router.group().add(
            middleware: GitHubRateLimitMiddleware(limiter: state.gitHubRateLimits, resource: .search))
        GitHubSearchRoutes.add(to: search)
        GitHubRateLimitRoutes.add(to: router, limiter: state.gitHubRateLimits)
        FlickrRoutes.add(to: router)
        EnvelopeRoutes.add(to: router, store: state.envelope)
        EnvelopeArticleRoutes.add(to: router, store: state.envelope)
        FormLoginRoutes.add(to: router, store: state.formLogin)
        FormLoginRefreshRoutes.add(to: router, store: state.formLogin)
        FormLoginStatsRoutes.add(to: router, store: state.formLogin)
        ChatRoute.add(to: router)
    }

    /// The `/testing/…` routes the tour (`courier-demo`) shows retries, downloads, caching and record
    /// streams with, and the counters behind them.
    private static func addTourRoutes(to router: Router<DemoContext>, state: DemoState) {
        FlakyRoutes.add(to: router, counters: state.flaky)
        DownloadRoute.add(to: router, counters: state.downloads)
        CacheRoutes.add(to: router, counters: state.cache)
        RecordStreamRoute.add(to: router)
        TestingStatsRoutes.add(to: router, state: state)
    }
}
