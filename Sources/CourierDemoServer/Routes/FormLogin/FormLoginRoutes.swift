import Hummingbird

/// Form login with a bearer token and a refresh token:
///
/// - `POST /auth/local[?ttl=SECONDS]` with an `application/x-www-form-urlencoded` body `email=…&password=…`
///   → `200 {"token", "refreshToken", "expiresIn": 3600, "user": {"id": 1, "email", "name": "Ada Lovelace"}}`.
///   `ttl` (default 3600, fractions allowed, 0...31536000) is the access token's lifetime. Another content
///   type → `415 {"message": "Expected application/x-www-form-urlencoded"}`; a missing or empty field →
///   `400 {"message": "email is required"}` (or `password`); wrong credentials →
///   `400 {"message": "Invalid email or password"}`.
/// - `GET /me` with `Authorization: Bearer <token>` → `{"id": 1, "email", "name"}`; no bearer token →
///   `401 {"message": "Missing bearer token"}`; an unknown one → `401 {"message": "Invalid token"}`; an
///   expired one → `401 {"message": "Token expired"}` with
///   `WWW-Authenticate: Bearer error="invalid_token", error_description="The access token expired"`.
enum FormLoginRoutes {
    static func add(to router: Router<DemoContext>, store: FormLoginStore) {
        router.post("/auth/local") { request, _ in
            let lifetime = try FormLoginBodies.requestedLifetime(request) ?? 3600
            guard FormFields.isFormContentType(request.headers[.contentType]) else {
                return try FormLoginBodies.message(
                    "Expected application/x-www-form-urlencoded", status: .unsupportedMediaType)
            }
            let form = FormFields(try await FormLoginBodies.text(of: request))
            if let missing = ["email", "password"].first(where: { (form[$0] ?? "").isEmpty }) {
                return try FormLoginBodies.message("\(missing) is required", status: .badRequest)
            }
            guard form["email"] == DemoCredentials.loginEmail, form["password"] == DemoCredentials.loginPassword
            else {
                return try FormLoginBodies.message("Invalid email or password", status: .badRequest)
            }
            let grant = store.logIn(lifetime: lifetime)
            return try DemoResponses.json(
                FormLoginBodies.LoginResult(
                    token: grant.token, refreshToken: grant.refreshToken, expiresIn: grant.lifetime,
                    user: .ada))
        }
        router.get("/me") { request, _ in
            let token = AuthorizationHeader.bearerToken(of: request)
            switch store.checkMe(token) {
            case .valid:
                return try DemoResponses.json(FormLoginBodies.User.ada)
            case .expired:
                return try FormLoginBodies.tokenExpired()
            case .unknown where token == nil:
                return try FormLoginBodies.unauthorized(
                    "Missing bearer token", challenge: #"Bearer realm="courier-demo""#)
            case .unknown:
                return try FormLoginBodies.unauthorized(
                    "Invalid token",
                    challenge: #"Bearer error="invalid_token", error_description="The access token is invalid""#)
            }
        }
    }
}
