import Foundation
import Hummingbird

/// The Google URL Shortener v1 API, under `/urlshortener/v1`:
///
/// - `POST /urlshortener/v1/url?key=KEY` with `{"longUrl": "https://…"}` → `200`
///   `{"kind": "urlshortener#url", "id": "http://goo.gl/AbC123", "longUrl": "https://…"}`; the same long
///   URL always gets the same id.
/// - `GET /urlshortener/v1/url?shortUrl=http://goo.gl/AbC123&key=KEY` → `200` with the same fields plus
///   `"status": "OK"`.
///
/// The key (``DemoCredentials/shortenerAPIKey``) comes as the `key` query item or an `X-Goog-Api-Key`
/// header and is checked first. Failures carry Google's error body (see ``GoogleErrorBody``): missing key
/// `403 forbidden`, wrong key `400 keyInvalid`, a body that is not JSON `400 parseError`, a `longUrl` that
/// is missing or not an absolute http(s) URL `400 invalid` at `resource.longUrl`, no `shortUrl`
/// `400 required`, an unknown `shortUrl` `404 notFound`.
enum ShortenerRoutes {
    static let path: RouterPath = "/urlshortener/v1/url"
    static let maximumBodySize = 1024 * 1024

    static func add(to router: Router<DemoContext>, store: ShortURLStore) {
        router.post(path) { request, _ in
            if let keyFailure = keyFailure(request) { return try keyFailure.response() }
            let body = try await request.body.collect(upTo: maximumBodySize)
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.readableBytesView)) else {
                return try GoogleErrorBody.parseError.response()
            }
            guard let longURL = (object as? [String: Any])?["longUrl"] as? String, isAbsoluteWebURL(longURL) else {
                return try GoogleErrorBody.invalidLongURL.response()
            }
            return try DemoResponses.json(ShortURL(id: store.shorten(longURL), longUrl: longURL))
        }
        router.get(path) { request, _ in
            if let keyFailure = keyFailure(request) { return try keyFailure.response() }
            guard let shortURL = QueryItems(request)["shortUrl"], !shortURL.isEmpty else {
                return try GoogleErrorBody.missingShortURL.response()
            }
            guard let longURL = store.expand(shortURL) else { return try GoogleErrorBody.notFound.response() }
            return try DemoResponses.json(ShortURL(id: shortURL, longUrl: longURL, status: "OK"))
        }
    }

    /// The body of both operations; `status` only on lookups.
    struct ShortURL: Encodable {
        var kind = "urlshortener#url"
        let id: String
        let longUrl: String
        var status: String?
    }

    /// The error for a missing or wrong API key, nil when the key is right.
    static func keyFailure(_ request: Request) -> GoogleErrorBody? {
        let key = QueryItems(request)["key"] ?? request.headers[.googleAPIKey]
        guard let key, !key.isEmpty else { return .missingKey }
        return key == DemoCredentials.shortenerAPIKey ? nil : .invalidKey
    }

    /// Whether `text` is an absolute `http` or `https` URL with a host.
    static func isAbsoluteWebURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }
}
