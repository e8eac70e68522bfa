/// The 250 photos each Flickr-style list method returns, generated from the method name so that
/// `flickr.interestingness.getList` and `flickr.photos.getRecent` differ but never change.
///
/// Every seventh photo has no `h` size (so no `url_h`, `height_h`, `width_h`), as on Flickr; every
/// third is portrait. Dates taken step back from 2026-11-20 14:03:11 by 7h13m per photo; every fiftieth has
/// `datetakenunknown` `"1"`.
enum FlickrPhotoCatalogue {
    static let count = 250

    /// One photo's fields; which optional ones are sent depends on `extras`.
    struct Photo {
        let id: String
        let owner: String
        let secret: String
        let server: String
        let farm: Int
        let title: String
        let dateTaken: String
        let dateTakenUnknown: Bool
        /// Width and height of the `h` size, nil when the photo has none.
        let largeSize: (width: Int, height: Int)?

        /// `https://live.staticflickr.com/{server}/{id}_{secret}_h.jpg`.
        var largeURL: String {
            "https://live.staticflickr.com/\(server)/\(id)_\(secret)_h.jpg"
        }
    }

    private static let owners = ["12345678@N02", "98765432@N05", "55555555@N00", "24681357@N08"]
    private static let subjects = [
        "Harbour at dawn", "Red kite", "Old mill", "Fog over the valley", "Night market", "Glacier", "Tram 28",
        "Lavender field", "Lighthouse", "Street musician", "Desert road", "Autumn beech",
    ]
    private static let newestTaken = CivilTime.epochSeconds(
        year: 2026, month: 11, day: 20, hour: 14, minute: 3, second: 11)

    /// The photos at `range` (0-based, clamped to the catalogue) of `method`'s list.
    static func photos(for method: String, in range: Range<Int>) -> [Photo] {
        let seed = FNV1a64.hash(method.utf8)
        return range.clamped(to: 0..<count).map { index in
            let mixed = FNV1a64.mix(FNV1a64.hash("\(seed)/\(index)".utf8))
            let shift = Int(seed % 1000)
            let secret = String(String(mixed, radix: 16).suffix(10))
            let portrait = index % 3 == 0
            return Photo(
                id: String(53_300_000_000 + Int(seed % 1_000_000) * 1000 + (count - index) * 3),
                owner: owners[Int(mixed % UInt64(owners.count))],
                secret: String(repeating: "0", count: 10 - secret.count) + secret,
                server: String(65_535 - index % 40),
                farm: 66,
                title: index % 17 == 16 ? "" : "\(subjects[(index + shift) % subjects.count]) #\(index + 1)",
                dateTaken: CivilTime(epochSeconds: newestTaken - index * 25_980).dateAndTime,
                dateTakenUnknown: index % 50 == 49,
                largeSize: index % 7 == 3 ? nil : portrait ? (1067, 1600) : (1600, 1067))
        }
    }
}
