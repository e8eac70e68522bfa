public import Courier
public import HTTPTypes

// swift-format misses a doc comment that a DOCC region marker separates from its declaration.
// swift-format-ignore: AllPublicDeclarationsHaveDocumentation
/// The Google URL Shortener v1's calls, as a router enum: request parts only; the client decodes each
/// into ``ShortURL``.
// BEGIN DOCC: shortener route
public enum ShortenerRoute: Route {
    /// `POST /url` with `{"longUrl": …}`.
    case shorten(longURL: String)
    /// `GET /url?shortUrl=…`.
    case lookup(shortURL: String)

    /// POST to shorten, GET to look up.
    public var method: HTTPRequest.Method {
        switch self {
        case .shorten: .post
        case .lookup: .get
        }
    }

    /// `/url`, under the client's `/urlshortener/v1` base path.
    public var path: RoutePath { "/url" }

    /// `shortUrl` for lookups. The API key is the client's default query item.
    public var query: Query {
        switch self {
        case .shorten: [:]
        case .lookup(let shortURL): ["shortUrl": shortURL]
        }
    }

    /// `{"longUrl": …}` for shortening.
    public var body: RequestBody {
        switch self {
        case .shorten(let longURL): .json(["longUrl": longURL])
        case .lookup: .empty
        }
    }
}
// END DOCC: shortener route
