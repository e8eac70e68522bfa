public import HTTPTypes

/// The response statuses a request treats as success; anything else becomes an ``APIError``.
///
/// ```swift
/// struct GetFeed: Endpoint {
///     typealias Response = Data
///     var path: RoutePath { "/feed" }
///     var acceptableStatuses: AcceptableStatuses? { [200..<300, 304..<305] }  // 304 Not Modified too
/// }
/// ```
public struct AcceptableStatuses: Sendable, Hashable {
    /// The accepted ranges of status codes.
    public var ranges: [Range<Int>]

    /// Accepts codes in any of `ranges`.
    public init(_ ranges: [Range<Int>]) { self.ranges = ranges }

    /// 200–299, the default.
    public static let successful = AcceptableStatuses([200..<300])

    /// Whether `status` is accepted.
    public func contains(_ status: HTTPResponse.Status) -> Bool {
        ranges.contains { $0.contains(status.code) }
    }
}

extension AcceptableStatuses: ExpressibleByArrayLiteral {
    /// Accepts codes in any of the ranges listed.
    public init(arrayLiteral elements: Range<Int>...) { self.init(elements) }
}
