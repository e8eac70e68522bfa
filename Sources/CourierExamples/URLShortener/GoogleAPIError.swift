/// Google's error body: `{"error": {"code": 400, "message": "…", "errors": [{"domain", "reason", …}]}}`.
public struct GoogleAPIError: Decodable, Sendable, Error, CustomStringConvertible {
    /// The error object.
    public struct Body: Decodable, Sendable {
        /// The HTTP status code, repeated.
        public let code: Int
        /// A readable message.
        public let message: String
        /// The individual problems.
        public let errors: [Detail]
    }

    /// One problem, such as `{"domain": "usageLimits", "reason": "keyInvalid", …}`.
    public struct Detail: Decodable, Sendable {
        /// The error's domain (`global`, `usageLimits`).
        public let domain: String
        /// A machine-readable reason (`keyInvalid`, `invalid`, `notFound`).
        public let reason: String
        /// A readable message.
        public let message: String
        /// Where the problem is, such as `resource.longUrl`, if it names one.
        public let location: String?
    }

    /// The error object.
    public let error: Body

    /// The reasons, comma-separated.
    public var reasons: [String] { error.errors.map(\.reason) }

    /// `Invalid Value (invalid at resource.longUrl)`.
    public var description: String {
        let details = error.errors.map { detail in detail.location.map { "\(detail.reason) at \($0)" } ?? detail.reason
        }
        return details.isEmpty ? error.message : "\(error.message) (\(details.joined(separator: ", ")))"
    }
}
