import CourierDemoServer
import Hummingbird

/// Adds the routes that exist only for tests to a demo router.
enum TestRouter {
    static func add(to router: Router<DemoContext>, state: TestState) {
        // The only router middleware, so it sees `/echo/**` with every method before routing.
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
        ConcurrencyRoutes.add(to: router, tracker: state.concurrency)
        PaginationLinkRoute.add(to: router, counters: state.pages)
        PaginationRoutes.add(to: router, counters: state.pages)
        EncodedBodyRoutes.add(to: router)
        UploadRoute.add(to: router)
        XMLRoutes.add(to: router)
        CacheTestsOrigin.add(to: router, store: state.cacheTests)
        EventStreamRoutes.add(to: router, counters: state.events)
    }
}
