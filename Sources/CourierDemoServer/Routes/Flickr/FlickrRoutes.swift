import Foundation
import Hummingbird

/// The Flickr REST API's endpoint, `GET /services/rest/` (also without the final slash):
/// `?method=flickr.interestingness.getList&api_key=KEY&format=json&nojsoncallback=1&extras=url_h,date_taken
/// &per_page=100&page=1`.
///
/// Methods `flickr.interestingness.getList` and `flickr.photos.getRecent` answer ``FlickrPhotoList`` over
/// ``FlickrPhotoCatalogue`` (`per_page` default 100, clamped to 1...500; `page` default 1; a page past the
/// end has no photos). Failures come with HTTP 200 as ``FlickrFailure``, checked in this order: a `format`
/// other than `json` → 111 (a missing format is Flickr's default `rest`, XML, which this server does not
/// speak), an unknown method → 112, a missing or wrong `api_key` → 100.
///
/// Without `nojsoncallback=1` the JSON is wrapped as JSONP, `jsonFlickrApi({…})` (or the name given by
/// `jsoncallback=`), with `Content-Type: text/javascript`; otherwise it is `application/json`.
enum FlickrRoutes {
    static let methods: Set<String> = ["flickr.interestingness.getList", "flickr.photos.getRecent"]

    static func add(to router: Router<DemoContext>) {
        // The router ignores a final slash, so this serves `/services/rest/` too.
        router.get("/services/rest") { request, _ in
            let query = QueryItems(request)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return respond(json: try encoder.encode(result(for: query)), query: query)
        }
    }

    /// The photo list, or the failure, `query` asks for.
    static func result(for query: QueryItems) -> any Encodable {
        let format = query["format"] ?? "rest"
        guard format == "json" else { return FlickrFailure.unknownFormat(format) }
        let method = query["method"] ?? ""
        guard methods.contains(method) else { return FlickrFailure.unknownMethod(method) }
        guard query["api_key"] == DemoCredentials.flickrAPIKey else { return FlickrFailure.invalidKey }
        let perPage = query["per_page"].flatMap(Int.init).map { min(max($0, 1), 500) } ?? 100
        let page = query["page"].flatMap(Int.init).map { max($0, 1) } ?? 1
        let extras = Set((query["extras"] ?? "").split(separator: ",").map { $0.trimmingSpaces() })
        let start = min((page - 1) * perPage, FlickrPhotoCatalogue.count)
        let photos = FlickrPhotoCatalogue.photos(for: method, in: start..<(start + perPage))
        let total = FlickrPhotoCatalogue.count
        return FlickrPhotoList(
            photos: .init(
                page: page, pages: (total + perPage - 1) / perPage, perpage: perPage, total: total,
                photo: photos.map { FlickrPhotoList.PhotoEntry($0, extras: extras) }))
    }

    /// Plain JSON with `nojsoncallback=1`, JSONP otherwise.
    static func respond(json: Data, query: QueryItems) -> Response {
        if query["nojsoncallback"] == "1" {
            return DemoResponses.json(bytes: json)
        }
        let requested = query["jsoncallback"] ?? ""
        let isIdentifier =
            !requested.isEmpty && requested.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        let callback = isIdentifier ? requested : "jsonFlickrApi"
        var body = Data(callback.utf8)
        body.append(UInt8(ascii: "("))
        body.append(json)
        body.append(UInt8(ascii: ")"))
        return Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
