public import Foundation
public import HTTPTypes

/// The rate limit GitHub reports in every response's `X-RateLimit-*` fields.
public struct GitHubRateLimit: Sendable, Equatable {
    /// Requests allowed in the window.
    public let limit: Int
    /// Requests left in the window.
    public let remaining: Int
    /// Requests used in the window.
    public let used: Int?
    /// When the window resets.
    public let reset: Date
    /// Which limit this is (`core`, `search`).
    public let resource: String?

    /// Reads the fields, or `nil` when the response has none.
    public init?(_ fields: HTTPFields) {
        func value(_ name: String) -> String? { HTTPField.Name(name).flatMap { fields[$0] } }
        guard let limit = value("X-RateLimit-Limit").flatMap(Int.init),
            let remaining = value("X-RateLimit-Remaining").flatMap(Int.init),
            let reset = value("X-RateLimit-Reset").flatMap(TimeInterval.init)
        else { return nil }
        self.limit = limit
        self.remaining = remaining
        self.used = value("X-RateLimit-Used").flatMap(Int.init)
        self.reset = Date(timeIntervalSince1970: reset)
        self.resource = value("X-RateLimit-Resource")
    }
}
