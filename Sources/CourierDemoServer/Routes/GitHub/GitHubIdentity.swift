import Hummingbird

/// Who a GitHub-style request comes from, judged by its `Authorization` header.
enum GitHubIdentity: Equatable {
    /// No `Authorization` header.
    case anonymous
    /// `Bearer <token>` or `token <token>` with ``DemoCredentials/githubToken``.
    case authenticated
    /// Any other `Authorization` header: GitHub answers `401 Bad credentials`.
    case invalid

    init(_ request: Request) {
        guard let header = AuthorizationHeader(request) else {
            self = .anonymous
            return
        }
        let knownScheme = header.scheme == "bearer" || header.scheme == "token"
        self = knownScheme && header.credentials == DemoCredentials.githubToken ? .authenticated : .invalid
    }
}
