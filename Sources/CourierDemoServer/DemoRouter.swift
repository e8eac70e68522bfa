import Hummingbird

/// The request context every demo route uses.
typealias DemoContext = BasicRequestContext

/// Assembles every route the demo server serves.
enum DemoRouter {
    /// A router with the echo middleware in front of the test routes.
    static func make() -> Router<DemoContext> {
        let router = Router(context: DemoContext.self, options: .autoGenerateHeadEndpoints)
        // Added first so that it sees `/echo/**` with every method before routing.
        router.add(middleware: EchoMiddleware())
        StatusRoutes.add(to: router)
        FixedRoutes.add(to: router)
        SlowRoute.add(to: router)
        TruncatedRoute.add(to: router)
        BytesRoute.add(to: router)
        DripRoute.add(to: router)
        HeadersRoute.add(to: router)
        GitHubUserRoutes.add(to: router)
        return router
    }
}
