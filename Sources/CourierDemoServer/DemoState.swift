import Foundation

/// Everything one server instance remembers (tokens, short URLs, counters). Each `DemoServer.start()`
/// makes a fresh one, so servers never share state; every store guards itself with a `Mutex`.
struct DemoState: Sendable {
    let shortURLs = ShortURLStore()
    let gitHubRateLimits = GitHubRateLimiter(startedAt: Date())
    let envelope = EnvelopeStore()
    let formLogin = FormLoginStore()
    let flaky = FlakyCounters()
    let concurrency = ConcurrencyTracker()
    let pages = PaginationCounters()
    let downloads = DownloadCounters()
    let cacheTests = CacheTestsOrigin.Store()
    let cache = CacheRoutes.Counters()
    let events = EventStreamRoutes.Counters()
}
