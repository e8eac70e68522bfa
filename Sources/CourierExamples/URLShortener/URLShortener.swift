public import Courier
public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// A client for the Google URL Shortener v1: shorten a URL and look one up.
///
/// ```swift
/// let shortener = try URLShortener(secrets: Secrets([.environment(prefix: "COURIER_")]))
/// let short = try await shortener.shorten("https://swift.org/documentation/")
/// let long = try await shortener.lookup(short.id)
/// ```
/// Failures are ``Courier/APIError``s; Google's own error body is decoded into ``GoogleAPIError``
/// (`error.errorBody(as: GoogleAPIError.self)`).
public struct URLShortener: Sendable {
    /// The shortener's real address.
    public static let productionURL = URL.constant("https://www.googleapis.com/urlshortener/v1")

    let client: APIClient

    /// A shortener sending `apiKey` as the `key` query item of every request.
    /// - Parameters:
    ///   - baseURL: the API's base URL, with its `/urlshortener/v1` path.
    ///   - apiKey: the Google API key (redacted in every error and log).
    ///   - transport: the platform's default unless given.
    public init(
        baseURL: URL, apiKey: Secret, transport: any ClientTransport = DefaultTransport.make(),
        middlewares: [any ClientMiddleware] = []
    ) {
        client = APIClient(baseURL: baseURL, transport: transport, middlewares: middlewares) {
            $0.defaultQuery["key"] = .string(apiKey.value)
            $0.errorBody = GoogleAPIError.self
        }
    }

    /// A shortener whose key, `GOOGLE_API_KEY`, comes from `secrets`.
    public init(
        baseURL: URL, secrets: Secrets, transport: any ClientTransport = DefaultTransport.make(),
        middlewares: [any ClientMiddleware] = []
    ) throws(SecretsError) {
        self.init(
            baseURL: baseURL, apiKey: try secrets["GOOGLE_API_KEY"], transport: transport, middlewares: middlewares)
    }

    /// Shortens `longURL`, which must be an absolute `http` or `https` URL: anything else is refused with
    /// ``Courier/APIError/Kind/invalidRequest`` before a request is sent.
    public func shorten(_ longURL: String) async throws(APIError) -> ShortURL {
        guard let url = URL(string: longURL), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else {
            throw APIError(.invalidRequest, phase: .building, message: "not an absolute http(s) URL: \(longURL)")
        }
        return try await client.send(ShortenerRoute.shorten(longURL: longURL), as: ShortURL.self)
    }

    /// Looks up what `shortURL` leads to.
    public func lookup(_ shortURL: String) async throws(APIError) -> ShortURL {
        try await client.send(ShortenerRoute.lookup(shortURL: shortURL), as: ShortURL.self)
    }
}
