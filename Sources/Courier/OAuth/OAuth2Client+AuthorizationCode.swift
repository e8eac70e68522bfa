import Crypto
public import Foundation

/// One sign-in with the authorization code grant, prepared: the URL the user opens, and what its answer is
/// checked against and exchanged with (RFC 6749 §4.1, PKCE RFC 7636 with S256, OpenID Connect's `nonce`).
///
/// ``OAuth2Client/authorizationCode(scope:userAgent:)`` makes and uses one for you; make one yourself with
/// ``OAuth2Client/authorizationRequest(redirectURI:scope:additionalParameters:)`` when your own code
/// receives the redirect (a web app's callback route), and keep it until the callback comes. It is `Codable`
/// for that; what it encodes to holds the PKCE verifier, a secret: keep it server-side, as you keep a token.
public struct OAuth2AuthorizationRequest: Sendable, Codable, CustomStringConvertible, CustomReflectable {
    /// Where the user signs in: the authorization endpoint with this request's parameters.
    public let url: URL
    /// Where the server sends the browser back.
    public let redirectURI: URL
    /// The value the callback must carry back, so an answer to another sign-in is refused.
    public let state: String
    /// The OpenID Connect nonce the ID token must carry, when `openid` was asked for.
    public let nonce: String?
    /// The scopes asked for.
    public let scope: [String]
    /// The PKCE verifier whose S256 hash `url` carries: a secret, sent only with the code.
    let codeVerifier: String

    /// The URL; never the verifier.
    public var description: String { "OAuth2AuthorizationRequest(\(url.absoluteString))" }

    /// What `dump` and debuggers show: the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

extension OAuth2Client {
    /// The authorization code grant with PKCE, start to end: `userAgent` shows the provider's sign-in page
    /// and returns where the server sent the browser back; the code found there is exchanged for tokens.
    ///
    /// For a command-line or server tool, ``OAuth2LoopbackUserAgent`` receives the redirect on
    /// `http://127.0.0.1:<port>/callback` (RFC 8252). Asking for `openid` adds a `nonce` to the request.
    public func authorizationCode(scope: [String], userAgent: any OAuth2UserAgent) async throws(APIError)
        -> OAuth2Token
    {
        let callback: URL
        var request: OAuth2AuthorizationRequest?
        do {
            callback = try await userAgent.authorize { redirectURI in
                let made = try self.authorizationRequest(redirectURI: redirectURI, scope: scope)
                request = made
                return made.url
            }
        } catch {
            if let error = error as? APIError { throw error }
            throw APIError.oauth2(error, context: "OAuth 2.0 authorization code grant: the sign-in step failed")
        }
        guard let request else {
            throw APIError(
                .authenticationFailed, phase: .building,
                message: "OAuth 2.0 authorization code grant: the user agent returned without opening the sign-in page")
        }
        return try await exchange(callback: callback, for: request)
    }

    /// Prepares a sign-in: a fresh `state`, PKCE verifier (S256) and, when `scope` has `openid`, `nonce`,
    /// and the authorization endpoint's URL carrying them.
    /// - Parameters:
    ///   - redirectURI: where the server sends the browser back; registered with the provider (for a loopback
    ///     URI, any port, RFC 8252 §7.3).
    ///   - scope: the scopes to ask for.
    ///   - additionalParameters: more query parameters (`prompt`, `login_hint`, `audience`, …); they cannot
    ///     replace the grant's own.
    public func authorizationRequest(
        redirectURI: URL, scope: [String], additionalParameters: [String: String] = [:]
    ) throws(APIError) -> OAuth2AuthorizationRequest {
        guard let endpoint = provider.authorizationEndpoint else {
            throw APIError(
                .invalidRequest, phase: .building,
                message: "OAuth 2.0 authorization code grant: the provider has no authorization endpoint")
        }
        let verifier = Self.randomToken(bytes: 32)
        let challenge = Self.base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
        let state = Self.randomToken(bytes: 16)
        let nonce = scope.contains("openid") ? Self.randomToken(bytes: 16) : nil
        var query: Query = [
            "response_type": "code", "client_id": provider.client.id, "redirect_uri": redirectURI.absoluteString,
            "state": state, "code_challenge": challenge, "code_challenge_method": "S256",
        ]
        if !scope.isEmpty { query.append("scope", scope.joined(separator: " ")) }
        if let nonce { query.append("nonce", nonce) }
        for (name, value) in additionalParameters.sorted(by: { $0.key < $1.key }) where !query.contains(name) {
            query.append(name, value)
        }
        let hasQuery = URLComponents(url: endpoint, resolvingAgainstBaseURL: true)?.percentEncodedQuery != nil
        let encoded = QueryEncoding().serialize(query, escaping: .unreserved)
        guard let url = URL(string: endpoint.absoluteString + (hasQuery ? "&" : "?") + encoded) else {
            throw APIError(
                .invalidRequest, phase: .building,
                message: "OAuth 2.0 authorization code grant: cannot add a query to \(endpoint.absoluteString)")
        }
        return OAuth2AuthorizationRequest(
            url: url, redirectURI: redirectURI, state: state, nonce: nonce, scope: scope, codeVerifier: verifier)
    }

    /// Reads the redirect the server sent the browser to, and exchanges its code for tokens with the PKCE
    /// verifier. Refuses a callback whose `state` is not `request`'s (a forged or stale answer), whose `iss`
    /// names another issuer (RFC 9207), or that carries the server's `error` (thrown with it as
    /// ``APIError/errorBody``, an ``OAuth2ErrorResponse``, as `access_denied` when the user declined).
    public func exchange(callback: URL, for request: OAuth2AuthorizationRequest) async throws(APIError)
        -> OAuth2Token
    {
        let grant = "authorization code grant"
        let parameters = Self.callbackParameters(callback)
        func refused(_ reason: String, body: OAuth2ErrorResponse? = nil) -> APIError {
            var error = APIError(
                body == nil ? .rejected : .apiError, phase: .inspecting, message: "OAuth 2.0 \(grant): \(reason)")
            error.errorBody = body
            return error
        }
        guard let state = parameters["state"], Self.constantTimeEqual(state, request.state) else {
            throw refused(
                parameters["state"] == nil
                    ? "the callback carries no state"
                    : "the callback's state is not this sign-in's (a forged or stale answer)")
        }
        if let issuer = parameters["iss"], let expected = provider.issuer,
            OAuth2Provider.trimmed(issuer) != OAuth2Provider.trimmed(expected.absoluteString)
        {
            throw refused("the callback names the issuer \(issuer), not \(expected.absoluteString) (RFC 9207)")
        }
        if let code = parameters["error"] {
            let body = OAuth2ErrorResponse(
                error: code, errorDescription: parameters["error_description"], errorURI: parameters["error_uri"])
            throw refused("the authorization endpoint answered \(body)", body: body)
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw refused("the callback carries neither a code nor an error")
        }
        let fields: Query = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": request.redirectURI.absoluteString,
            "code_verifier": request.codeVerifier,
        ]
        return try await requestToken(
            grant: grant, fields: fields, scope: request.scope, secrets: [code, request.codeVerifier])
    }

    /// The parameters of a callback URL, the first value of each name: the query's, then the fragment's (for a
    /// server that answers there).
    static func callbackParameters(_ url: URL) -> [String: String] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        var parameters: [String: String] = [:]
        for part in [components?.percentEncodedQuery, components?.percentEncodedFragment] {
            for pair in EncodedQueryPair.split(Substring(part ?? "")) {
                let name = pair.name(plusIsSpace: true)
                if parameters[name] == nil { parameters[name] = pair.value(plusIsSpace: true) ?? "" }
            }
        }
        return parameters
    }

    /// `count` random bytes as base64url without padding: 43 characters for 32 bytes, the PKCE verifier's
    /// recommended length.
    static func randomToken(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL(Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
    }

    /// base64url without padding (RFC 4648 §5), as PKCE and JOSE write it.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Whether `a` and `b` are equal, in time that does not depend on where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
