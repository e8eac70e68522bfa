import Hummingbird

/// The `Authorization` header split into its scheme and credentials (`Bearer abc` → `bearer`, `abc`).
struct AuthorizationHeader {
    /// The scheme, lowercased.
    let scheme: String
    /// What follows the scheme, surrounding spaces removed.
    let credentials: String

    /// Nil when the request has no `Authorization` header.
    init?(_ request: Request) {
        guard let value = request.headers[.authorization] else { return nil }
        let trimmed = value.trimmingSpaces()
        let scheme = trimmed.prefix { $0 != " " }
        self.scheme = scheme.lowercased()
        credentials = trimmed.dropFirst(scheme.count).trimmingSpaces()
    }

    /// The bearer token of `request`, or nil when it sends none (or another scheme).
    static func bearerToken(of request: Request) -> String? {
        guard let header = AuthorizationHeader(request), header.scheme == "bearer", !header.credentials.isEmpty
        else { return nil }
        return header.credentials
    }
}
