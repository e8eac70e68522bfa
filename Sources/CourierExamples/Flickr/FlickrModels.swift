public import Courier
public import Foundation

/// Flickr's API methods used here, sent as the `method` query item.
public enum FlickrMethod: String, Sendable, CaseIterable, QueryValueConvertible {
    /// The day's interesting photos.
    case interestingPhotos = "flickr.interestingness.getList"
    /// The latest public photos.
    case recentPhotos = "flickr.photos.getRecent"
}

/// Extra fields a photo list can carry.
public enum FlickrExtra: String, Sendable {
    /// The large (1600 px) image URL, `url_h`.
    case largeURL = "url_h"
    /// When the photo was taken, `datetaken`.
    case dateTaken = "date_taken"
}

/// One photo.
public struct FlickrPhoto: Decodable, Sendable, Identifiable {
    /// The photo's id.
    public let id: String
    /// Its title.
    public let title: String
    /// Its owner's id.
    public let owner: String
    /// The large image, when asked for and available.
    public let largeURL: URL?
    /// When it was taken, when asked for.
    public let dateTaken: Date?

    enum CodingKeys: String, CodingKey {
        case id, title, owner
        case largeURL = "url_h"
        case dateTaken = "datetaken"
    }
}

/// One page of photos.
public struct FlickrPhotoPage: Decodable, Sendable {
    /// The page number.
    public let page: Int
    /// How many pages there are.
    public let pages: Int
    /// The photos.
    public let photo: [FlickrPhoto]
}

/// The `photos` wrapper of Flickr's JSON.
struct FlickrPhotosResponse: Decodable, Sendable {
    let photos: FlickrPhotoPage
}

/// Flickr's failure body: `{"stat": "fail", "code": 100, "message": "Invalid API Key (…)"}`.
public struct FlickrFailure: Decodable, Sendable, Error, CustomStringConvertible {
    /// Flickr's error code (100: invalid key, 112: unknown method, …).
    public let code: Int
    /// Flickr's message.
    public let message: String

    /// `message (code N)`.
    public var description: String { "\(message) (code \(code))" }
}
