import Foundation

/// Everything one server instance remembers (tokens, short URLs, counters). Each `DemoServer.start()`
/// makes a fresh one, so servers never share state; every store guards itself with a `Mutex`.
struct DemoState: Sendable {
    let shortURLs = ShortURLStore()
    let gitHubRateLimits = GitHubRateLimiter(startedAt: Date())
    let envelope = EnvelopeStore()
    let formLogin = FormLoginStore()
    let flaky = FlakyCounters()
    let downloads = DownloadCounters()
    let cache = CacheRoutes.Counters()
}
