public import Foundation

extension OAuth2Provider {
    /// The provider at `issuer`, from its metadata: RFC 8414 authorization-server metadata
    /// (`/.well-known/oauth-authorization-server`, the issuer's path after it) and OpenID Connect discovery
    /// (`<issuer>/.well-known/openid-configuration`), both read, each filling in what the other lacks (OpenID
    /// Connect's document names no revocation endpoint, for one).
    ///
    /// Fails with ``APIError`` when neither document can be read, when one names another issuer than
    /// `issuer` (RFC 8414 §3.3: a document naming another issuer could send tokens to the wrong server), or
    /// when neither names a token endpoint.
    public static func discover(
        issuer: URL, client: OAuth2ClientRegistration, transport: any ClientTransport = DefaultTransport.make()
    ) async throws(APIError) -> OAuth2Provider {
        let issuerText = Self.trimmed(issuer.absoluteString)
        // RFC 8414 §3.1: the well-known path goes between the origin and the issuer's own path (kept as encoded).
        let issuerPath = Self.trimmed(issuer.path(percentEncoded: true))
        guard let origin = Origin(issuer), issuer.query == nil, issuer.fragment == nil,
            let oauthURL = URL(string: "\(origin)/.well-known/oauth-authorization-server\(issuerPath)"),
            let oidcURL = URL(string: "\(issuerText)/.well-known/openid-configuration")
        else {
            throw APIError(
                .invalidRequest, phase: .building,
                message: "\(issuer) is not an issuer URL (http or https, without a query or fragment)")
        }
        // GETs, so transient failures (a pooled connection the server just closed, a 503) are tried again.
        let api = APIClient(baseURL: issuer, transport: transport, middlewares: [.retry()]) {
            $0.redaction = .oauth2
        }
        var documents: [ServerMetadata] = []
        var failures: [APIError] = []
        for url in [oauthURL, oidcURL] {
            do {
                documents.append(try await api.send(MetadataRequest(url: url)))
            } catch {
                failures.append(error)
            }
        }
        guard !documents.isEmpty else {
            var error = failures.last ?? APIError(.invalidRequest, phase: .sending)
            let reasons = failures.map { "\($0.url ?? "?"): \($0.status.map { "\($0.code)" } ?? "\($0.kind)")" }
            error.message =
                "no OAuth 2.0 or OpenID Connect metadata for \(issuerText) (\(reasons.joined(separator: "; ")))"
            throw error
        }
        for document in documents where document.issuer.map(Self.trimmed) != Self.trimmed(issuerText) {
            throw APIError(
                .rejected, phase: .inspecting,
                message:
                    "the metadata of \(issuerText) names another issuer, \(document.issuer ?? "none") (RFC 8414 §3.3)")
        }
        func first(_ field: KeyPath<ServerMetadata, String?>) -> URL? {
            documents.lazy.compactMap { $0[keyPath: field].flatMap(URL.init(string:)) }.first
        }
        guard let tokenEndpoint = first(\.tokenEndpoint) else {
            throw APIError(
                .rejected, phase: .inspecting, message: "the metadata of \(issuerText) names no token endpoint")
        }
        return OAuth2Provider(
            issuer: issuer, tokenEndpoint: tokenEndpoint, authorizationEndpoint: first(\.authorizationEndpoint),
            revocationEndpoint: first(\.revocationEndpoint),
            deviceAuthorizationEndpoint: first(\.deviceAuthorizationEndpoint), jwksURI: first(\.jwksURI),
            userinfoEndpoint: first(\.userinfoEndpoint), client: client)
    }

    /// An issuer identifier without a final `/`, as issuers are compared.
    static func trimmed(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
}

/// The fields of RFC 8414 metadata and OpenID Connect discovery that Courier uses.
struct ServerMetadata: Decodable, Sendable {
    let issuer: String?
    let tokenEndpoint: String?
    let authorizationEndpoint: String?
    let revocationEndpoint: String?
    let deviceAuthorizationEndpoint: String?
    let jwksURI: String?
    let userinfoEndpoint: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case tokenEndpoint = "token_endpoint"
        case authorizationEndpoint = "authorization_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
    }
}

/// `GET` of a metadata document.
struct MetadataRequest: Endpoint {
    typealias Response = ServerMetadata
    let url: URL
    var path: RoutePath { .url(url) }
    var operationID: String { "oauth2 discovery" }
}
