import Foundation
import Hummingbird

/// Token refresh for the form login, and two routes that always fail:
///
/// - `POST /auth/refresh[?ttl=SECONDS]` with `refreshToken` as a form field or in JSON
///   `{"refreshToken": "…"}` → after about 50 ms (so concurrent refreshes really overlap)
///   `200 {"token", "refreshToken", "expiresIn"}`. The new access token lives as long as the original
///   login's unless `ttl` says otherwise; the refresh token rotates, and the old one then gets
///   `401 {"message": "Invalid refresh token"}`. No token → `400 {"message": "refreshToken is required"}`;
///   another content type → `415`.
/// - `POST /auth/refresh-broken` → always `500 {"message": "refresh service unavailable"}`, counted as
///   `brokenRefreshes`.
/// - `GET /auth/always-401` → always `401 {"message": "Token expired"}` with the expired-token challenge,
///   counted as `always401`.
enum FormLoginRefreshRoutes {
    static let refreshDuration: Duration = .milliseconds(50)

    struct RefreshRequest: Decodable {
        let refreshToken: String?
    }

    static func add(to router: Router<DemoContext>, store: FormLoginStore) {
        router.post("/auth/refresh") { request, _ in
            let lifetime = try FormLoginBodies.requestedLifetime(request)
            let contentType = request.headers[.contentType]
            let text = try await FormLoginBodies.text(of: request)
            let refreshToken: String?
            if FormFields.isFormContentType(contentType) {
                refreshToken = FormFields(text)["refreshToken"]
            } else if isJSON(contentType) {
                refreshToken = (try? JSONDecoder().decode(RefreshRequest.self, from: Data(text.utf8)))?.refreshToken
            } else {
                return try FormLoginBodies.message(
                    "Expected application/x-www-form-urlencoded or application/json", status: .unsupportedMediaType)
            }
            guard let refreshToken, !refreshToken.isEmpty else {
                return try FormLoginBodies.message("refreshToken is required", status: .badRequest)
            }
            try await Task.sleep(for: refreshDuration)
            guard let grant = store.refresh(refreshToken, lifetime: lifetime) else {
                return try FormLoginBodies.message("Invalid refresh token", status: .unauthorized)
            }
            return try DemoResponses.json(
                FormLoginBodies.RefreshResult(
                    token: grant.token, refreshToken: grant.refreshToken, expiresIn: grant.lifetime))
        }
        router.post("/auth/refresh-broken") { _, _ in
            store.count { $0.brokenRefreshes += 1 }
            return try FormLoginBodies.message("refresh service unavailable", status: .internalServerError)
        }
        router.get("/auth/always-401") { _, _ in
            store.count { $0.always401 += 1 }
            return try FormLoginBodies.tokenExpired()
        }
    }

    /// Whether `contentType` is `application/json` or a `+json` type.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingSpaces().lowercased()
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
