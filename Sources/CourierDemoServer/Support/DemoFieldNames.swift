package import HTTPTypes

extension HTTPField.Name {
    /// `Link` (RFC 8288), for pagination.
    package static let link = literal("Link")
    /// `X-Goog-Api-Key`, where Google APIs also accept the API key.
    static let googleAPIKey = literal("X-Goog-Api-Key")
    /// `X-RateLimit-Limit`: requests allowed in the current window.
    static let rateLimitLimit = literal("X-RateLimit-Limit")
    /// `X-RateLimit-Remaining`: requests left in the current window.
    static let rateLimitRemaining = literal("X-RateLimit-Remaining")
    /// `X-RateLimit-Reset`: when the window ends, in epoch seconds.
    static let rateLimitReset = literal("X-RateLimit-Reset")
    /// `X-RateLimit-Used`: requests made in the current window.
    static let rateLimitUsed = literal("X-RateLimit-Used")
    /// `X-RateLimit-Resource`: the bucket the request counted against (`core` or `search`).
    static let rateLimitResource = literal("X-RateLimit-Resource")
    /// The `Date` a route wants sent instead of Hummingbird's (see ``OriginDateHandler``).
    package static let originDate = literal("Origin-Date")

    /// A field name written as a literal token. `init?` accepts every token, so the fallback is never
    /// taken; it only keeps this free of force unwraps.
    package static func literal(_ name: StaticString) -> Self {
        Self(name.description) ?? .via
    }
}
