import Foundation
import Synchronization

/// GitHub's primary rate limits for one server instance, one bucket per resource and identity
/// (every anonymous caller shares one bucket, as they all come from 127.0.0.1):
///
/// | resource | anonymous | with the token | window |
/// |---|---|---|---|
/// | `core` (`/users`, `/user`) | 60 | 5000 | an hour |
/// | `search` (`/search/…`) | 30 | 90 | a minute |
///
/// Windows are counted from the moment the server started: the first `core` window resets an hour after
/// start. Every request counts, whatever its answer (`404` and `401 Bad credentials` included; a wrong
/// token counts against the anonymous bucket). Once a bucket has none left, requests get `403` until
/// its window ends.
final class GitHubRateLimiter: Sendable {
    enum Resource: String, Sendable {
        case core, search
    }

    /// A bucket's state as the `X-RateLimit-*` headers and `GET /rate_limit` report it.
    struct Quota: Encodable, Sendable {
        let limit: Int
        let remaining: Int
        let reset: Int
        let used: Int
        let resource: String
    }

    private struct Bucket: Hashable {
        let resource: Resource
        let authenticated: Bool
    }

    private struct Usage {
        var window: Int
        var used: Int
    }

    private let startedAt: Int
    private let usage = Mutex<[Bucket: Usage]>([:])

    init(startedAt: Date) {
        self.startedAt = Int(startedAt.timeIntervalSince1970)
    }

    /// The requests a bucket allows per window.
    static func limit(_ resource: Resource, authenticated: Bool) -> Int {
        switch resource {
        case .core: authenticated ? 5000 : 60
        case .search: authenticated ? 90 : 30
        }
    }

    /// A window's length in seconds.
    static func window(_ resource: Resource) -> Int {
        resource == .core ? 3600 : 60
    }

    /// Counts one request against its bucket; `allowed` is false (and nothing is counted) when the bucket
    /// was already empty.
    func consume(_ resource: Resource, authenticated: Bool, now: Date = Date()) -> (quota: Quota, allowed: Bool) {
        let bucket = Bucket(resource: resource, authenticated: authenticated)
        let window = currentWindow(resource, now: now)
        let limit = Self.limit(resource, authenticated: authenticated)
        let (used, allowed) = usage.withLock { usage in
            var entry = usage[bucket].flatMap { $0.window == window ? $0 : nil } ?? Usage(window: window, used: 0)
            let allowed = entry.used < limit
            if allowed { entry.used += 1 }
            usage[bucket] = entry
            return (entry.used, allowed)
        }
        return (quota(resource, limit: limit, used: used, window: window), allowed)
    }

    /// A bucket's state without counting a request (for `GET /rate_limit`, which is free, as on GitHub).
    func peek(_ resource: Resource, authenticated: Bool, now: Date = Date()) -> Quota {
        let bucket = Bucket(resource: resource, authenticated: authenticated)
        let window = currentWindow(resource, now: now)
        let used = usage.withLock { usage in usage[bucket].flatMap { $0.window == window ? $0.used : nil } ?? 0 }
        return quota(resource, limit: Self.limit(resource, authenticated: authenticated), used: used, window: window)
    }

    /// Empties every bucket's count.
    func reset() {
        usage.withLock { $0.removeAll() }
    }

    private func currentWindow(_ resource: Resource, now: Date) -> Int {
        max(0, Int(now.timeIntervalSince1970) - startedAt) / Self.window(resource)
    }

    private func quota(_ resource: Resource, limit: Int, used: Int, window: Int) -> Quota {
        Quota(
            limit: limit, remaining: max(0, limit - used), reset: startedAt + (window + 1) * Self.window(resource),
            used: used, resource: resource.rawValue)
    }
}
