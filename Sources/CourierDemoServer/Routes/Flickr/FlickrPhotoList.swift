/// The body of a successful list call: `{"photos": {"page", "pages", "perpage", "total", "photo": […]},
/// "stat": "ok"}`, each photo with Flickr's field names and types (`id`, `secret`, `server` strings,
/// `farm` and `ispublic` numbers, `datetakenunknown` a string) and the `extras` asked for.
struct FlickrPhotoList: Encodable {
    struct Page: Encodable {
        let page: Int
        let pages: Int
        let perpage: Int
        let total: Int
        let photo: [PhotoEntry]
    }

    /// A photo as sent: `datetaken*` only with the `date_taken` extra, `url_h`/`height_h`/`width_h` only
    /// with the `url_h` extra and when the photo has that size.
    struct PhotoEntry: Encodable {
        let id: String
        let owner: String
        let secret: String
        let server: String
        let farm: Int
        let title: String
        let ispublic = 1
        let isfriend = 0
        let isfamily = 0
        var datetaken: String?
        var datetakengranularity: Int?
        var datetakenunknown: String?
        var url_h: String?
        var height_h: Int?
        var width_h: Int?

        init(_ photo: FlickrPhotoCatalogue.Photo, extras: Set<String>) {
            id = photo.id
            owner = photo.owner
            secret = photo.secret
            server = photo.server
            farm = photo.farm
            title = photo.title
            if extras.contains("date_taken") {
                datetaken = photo.dateTaken
                datetakengranularity = 0
                datetakenunknown = photo.dateTakenUnknown ? "1" : "0"
            }
            if extras.contains("url_h"), let size = photo.largeSize {
                url_h = photo.largeURL
                height_h = size.height
                width_h = size.width
            }
        }
    }

    let photos: Page
    var stat = "ok"
}

/// A Flickr failure, always sent with HTTP 200: `{"stat": "fail", "code": 100, "message": "…"}`.
struct FlickrFailure: Encodable {
    var stat = "fail"
    let code: Int
    let message: String

    /// Code 100: `api_key` missing or not ``DemoCredentials/flickrAPIKey``.
    static let invalidKey = FlickrFailure(code: 100, message: "Invalid API Key (Key has invalid format)")

    /// Code 111: a `format` other than `json`.
    static func unknownFormat(_ format: String) -> FlickrFailure {
        FlickrFailure(code: 111, message: "Format \"\(format)\" not found")
    }

    /// Code 112: a `method` this server does not serve.
    static func unknownMethod(_ method: String) -> FlickrFailure {
        FlickrFailure(code: 112, message: "Method \"\(method)\" not found")
    }
}
