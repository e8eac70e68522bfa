public import Courier
public import Foundation
import HTTPTypes
public import OpenAPIRuntime

/// A client for Flickr's REST API: every request carries the base parameters (`api_key`,
/// `format=json`, `nojsoncallback=1`), the method comes from ``FlickrMethod``, dates are parsed, and
/// `stat: fail` answers are errors.
///
/// ```swift
/// let flickr = FlickrClient(baseURL: FlickrClient.productionURL, apiKey: key)
/// let photos = try await flickr.photos(.interestingPhotos, extras: [.largeURL, .dateTaken])
/// ```
public struct FlickrClient: Sendable {
    /// api.flickr.com.
    public static let productionURL = URL.constant("https://api.flickr.com")

    let client: APIClient

    /// A client sending `apiKey` with every request.
    public init(
        baseURL: URL, apiKey: Secret, transport: any ClientTransport = DefaultTransport.make(),
        middlewares: [any ClientMiddleware] = []
    ) {
        // BEGIN DOCC: flickr client
        client = APIClient(baseURL: baseURL, transport: transport, middlewares: middlewares) {
            $0.defaultQuery = ["api_key": apiKey.value, "format": "json", "nojsoncallback": 1]
            $0.envelope = FlickrStatusEnvelope()
            // Flickr writes `datetaken` as "2026-11-20 14:03:11" (no zone; taken to be UTC here).
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            $0.jsonDecoder.dateDecodingStrategy = .formatted(formatter)
        }
        // END DOCC: flickr client
    }

    /// One page of photos from `method`, with the `extras` asked for.
    public func photos(
        _ method: FlickrMethod, extras: [FlickrExtra] = [.largeURL, .dateTaken], page: Int = 1, perPage: Int = 20
    ) async throws(APIError) -> FlickrPhotoPage {
        try await client.send(FlickrPhotos(method: method, extras: extras, page: page, perPage: perPage)).photos
    }
}

/// `GET /services/rest/?method=…&extras=…&page=…&per_page=…` (the base parameters are the client's).
struct FlickrPhotos: Endpoint {
    typealias Response = FlickrPhotosResponse
    let method: FlickrMethod
    let extras: [FlickrExtra]
    let page: Int
    let perPage: Int

    var path: RoutePath { "/services/rest/" }
    var query: Query {
        [
            "method": method, "extras": extras.map(\.rawValue).joined(separator: ","),
            "page": page, "per_page": perPage,
        ]
    }
}
