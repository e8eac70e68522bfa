public import Foundation

/// An OAuth 2.0 authorization server, and this app's registration with it: where to ask for tokens, and who
/// is asking.
///
/// Discover the endpoints from the server's metadata (RFC 8414, or OpenID Connect discovery), or write them:
/// ```swift
/// let provider = try await OAuth2Provider.discover(
///     issuer: issuer, client: .confidential(id: "svc", secret: secret))
/// let byHand = OAuth2Provider(tokenEndpoint: tokenEndpoint, client: .public(id: "cli"))
/// ```
public struct OAuth2Provider: Sendable, Hashable {
    /// The issuer identifier, when known (always after discovery).
    public var issuer: URL?
    /// Where tokens are obtained (every grant) and refreshed.
    public var tokenEndpoint: URL
    /// Where a user signs in for the authorization code grant.
    public var authorizationEndpoint: URL?
    /// Where tokens are revoked (RFC 7009).
    public var revocationEndpoint: URL?
    /// Where the device authorization grant starts (RFC 8628).
    public var deviceAuthorizationEndpoint: URL?
    /// The keys ID tokens are signed with (OpenID Connect).
    public var jwksURI: URL?
    /// The OpenID Connect user-info endpoint.
    public var userinfoEndpoint: URL?
    /// This app's registration: its client identifier, and how it authenticates at the token endpoint.
    public var client: OAuth2ClientRegistration

    /// A provider whose endpoints you know.
    public init(
        issuer: URL? = nil, tokenEndpoint: URL, authorizationEndpoint: URL? = nil, revocationEndpoint: URL? = nil,
        deviceAuthorizationEndpoint: URL? = nil, jwksURI: URL? = nil, userinfoEndpoint: URL? = nil,
        client: OAuth2ClientRegistration
    ) {
        self.issuer = issuer
        self.tokenEndpoint = tokenEndpoint
        self.authorizationEndpoint = authorizationEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.jwksURI = jwksURI
        self.userinfoEndpoint = userinfoEndpoint
        self.client = client
    }

    /// The origins of every endpoint: where an OAuth client may send.
    var origins: Set<Origin> {
        let endpoints = [
            issuer, tokenEndpoint, authorizationEndpoint, revocationEndpoint, deviceAuthorizationEndpoint, jwksURI,
            userinfoEndpoint,
        ]
        return Set(endpoints.compactMap { $0.flatMap(Origin.init) })
    }
}

/// How an app is registered with an authorization server, and how it proves it at the token endpoint.
public struct OAuth2ClientRegistration: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The client identifier the server issued.
    public var id: String
    /// The client secret, for a confidential client.
    public var secret: String?
    /// How the secret is sent.
    public var authentication: Authentication

    /// How a client authenticates at the token endpoint (RFC 6749 §2.3, the metadata's
    /// `token_endpoint_auth_methods_supported`).
    public enum Authentication: String, Sendable, Hashable {
        /// HTTP Basic with the form-encoded id and secret (`client_secret_basic`), the default for a secret.
        case secretBasic = "client_secret_basic"
        /// The id and secret as form fields of the request body (`client_secret_post`).
        case secretPost = "client_secret_post"
        /// No secret: a public client sends its id as a form field (`none`). Not `.none`, which in an optional
        /// parameter would read as "not given".
        case noSecret = "none"
    }

    /// A registration; `authentication` defaults to HTTP Basic with a secret and to ``Authentication/noSecret``
    /// without one.
    public init(id: String, secret: String? = nil, authentication: Authentication? = nil) {
        self.id = id
        self.secret = secret
        self.authentication = authentication ?? (secret == nil ? .noSecret : .secretBasic)
    }

    /// A confidential client (a server, a service): it keeps a secret.
    public static func confidential(id: String, secret: String, authentication: Authentication = .secretBasic)
        -> Self
    {
        Self(id: id, secret: secret, authentication: authentication)
    }

    /// A public client (a command-line tool, a mobile or desktop app): it has no secret to keep.
    public static func `public`(id: String) -> Self { Self(id: id) }

    /// The id and how it authenticates; never the secret.
    public var description: String {
        "OAuth2ClientRegistration(id: \(id), secret: \(secret == nil ? "none" : Redaction.placeholder), "
            + "\(authentication.rawValue))"
    }

    /// What `dump` and debuggers show: the secret hidden.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "id": id, "secret": secret == nil ? "none" : Redaction.placeholder,
                "authentication": authentication.rawValue,
            ])
    }
}
