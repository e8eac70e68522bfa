/// What one test server remembers besides the demo's state: per-key counters of its test routes. Each
/// ``TestServer/start(host:port:logLevel:)`` makes a fresh one; every store guards itself with a `Mutex`.
struct TestState: Sendable {
    let concurrency = ConcurrencyTracker()
    let pages = PaginationCounters()
    let cacheTests = CacheTestsOrigin.Store()
    let events = EventStreamRoutes.Counters()
}
