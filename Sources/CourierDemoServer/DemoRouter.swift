import Hummingbird

/// Assembles every route the demo server serves, over one fresh ``DemoState``.
enum DemoRouter {
    /// A router with the echo middleware in front of the test routes; each call has its own state.
    static func make() -> Router<DemoContext> {
        let state = DemoState()
        let router = Router(context: DemoContext.self, options: .autoGenerateHeadEndpoints)
        // Added first so that it sees `/echo/**` with every method before routing.
        router.add(middleware: EchoMiddleware())
        StatusRoutes.add(to: router)
        FixedRoutes.add(to: router)
        SlowRoute.add(to: router)
        ArrivalRoute.add(to: router)
        TruncatedRoute.add(to: router)
        BytesRoute.add(to: router)
        DripRoute.add(to: router)
        HeadersRoute.add(to: router)
        RedirectRoutes.add(to: router)
        addExampleAPIs(to: router, state: state)
        addTestingRoutes(to: router, state: state)
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

    /// The `/testing/…` routes for end-to-end tests of retries, pagination, transfers and the like.
    private static func addTestingRoutes(to router: Router<DemoContext>, state: DemoState) {
        FlakyRoutes.add(to: router, counters: state.flaky)
        ConcurrencyRoutes.add(to: router, tracker: state.concurrency)
        PaginationLinkRoute.add(to: router, counters: state.pages)
        PaginationRoutes.add(to: router, counters: state.pages)
        DownloadRoute.add(to: router, counters: state.downloads)
        EncodedBodyRoutes.add(to: router)
        UploadRoute.add(to: router)
        XMLRoutes.add(to: router)
        CacheTestsOrigin.add(to: router, store: state.cacheTests)
        CacheRoutes.add(to: router, counters: state.cache)
        EventStreamRoutes.add(to: router, counters: state.events)
        RecordStreamRoute.add(to: router)
        TestingStatsRoutes.add(to: router, state: state)
    }
}
