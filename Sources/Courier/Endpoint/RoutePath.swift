public import Foundation

/// The path of a route, relative to the client's base URL, with every interpolated value encoded as one
/// path segment.
///
/// Write it as a string literal; interpolations are percent-encoded so a `/`, `?` or `#` inside a value
/// can never escape its segment:
/// ```swift
/// let path: RoutePath = "/users/\(login)/repos"  // login "a/b c" → /users/a%2Fb%20c/repos
/// ```
/// The literal parts are trusted as written (a `%` in them is kept), except that characters that may not
/// appear in a path (spaces, non-ASCII, `?`, `#`) are encoded: put query items in ``Route/query``.
///
/// Three escape hatches cover what real APIs need:
/// ```swift
/// let manifest: RoutePath = "/v2/\(raw: repository)/manifests/\(tag)"  // "library/swift": its "/" stays
/// let object = RoutePath(segments: ["photos", "2024", key])  // each segment encoded
/// let upload = RoutePath.url(uploadURL)  // an absolute URL, on an origin the client allows
/// ```
public struct RoutePath: Sendable, Hashable, CustomStringConvertible {
    /// The percent-encoded path, as it goes on the wire; for an absolute URL, its path and query.
    public let encoded: String
    /// The absolute URL the path was made from with ``url(_:)``, else `nil` (the path is relative to the
    /// client's base URL).
    public let absoluteURL: URL?
    /// Where the interpolated values sit in ``encoded``, for ``template``; `nil` when the path has none.
    private let holes: Holes?
    /// The first value given as a segment that is `.` or `..`: no encoding of one is safe (WHATWG URL
    /// parsers and many servers read `%2E%2E` as `..` again), so a request with one is refused.
    var dotSegment: String?

    /// A path from text that is already percent-encoded where needed, such as a `Link` header's URL path.
    public init(encoded: String) {
        self.init(encoded: encoded, holes: nil)
    }

    private init(encoded: String, holes: Holes?) {
        self.encoded = encoded
        self.holes = holes
        absoluteURL = nil
    }

    /// A path whose every `/`-separated segment is percent-encoded from `segments`.
    public init(segments: [String]) {
        self.init(encoded: segments.map { "/" + Self.segment($0) }.joined())
        dotSegment = segments.first(where: Self.isDotSegment)
    }

    /// An absolute URL, such as a `Location` header's or an upload URL, sent with the client's middleware and
    /// default headers. Its origin must be the base URL's or one of
    /// ``APIClient/Configuration/allowedOrigins``, else the request fails with
    /// ``APIError/Kind/invalidRequest`` before anything is sent. The route's query items follow the URL's
    /// own; the client's default query items are added only on the base URL's origin.
    public static func url(_ url: URL) -> RoutePath { RoutePath(absolute: url) }

    private init(absolute url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        encoded = (path.isEmpty ? "/" : path) + query
        absoluteURL = url.absoluteURL
        holes = nil
    }

    /// Whether `text` is a dot-segment, which makes a request invalid (see ``dotSegment``).
    static func isDotSegment(_ text: String) -> Bool {
        // By bytes: comparing with the literals costs a few hundred instructions for a value that isn't one.
        let utf8 = text.utf8
        return (1...2).contains(utf8.count) && utf8.allSatisfy { $0 == UInt8(ascii: ".") }
    }

    /// `text` encoded as one segment (`/` as `%2F`). A dot-segment is written `%2E`/`%2E%2E`, but a path
    /// holding one is refused before it is sent.
    static func segment(_ text: String) -> String {
        guard isDotSegment(text) else { return PercentEncoding.unreserved.encode(text) }
        return text.utf8.count == 1 ? "%2E" : "%2E%2E"
    }

    /// The encoded path, or the absolute URL.
    public var description: String { absoluteURL?.absoluteString ?? encoded }

    /// Paths are equal when they send the same request, however they were written (`"/users/\(42)"` equals
    /// `"/users/42"`).
    public static func == (lhs: RoutePath, rhs: RoutePath) -> Bool {
        lhs.encoded == rhs.encoded && lhs.absoluteURL == rhs.absoluteURL && lhs.dotSegment == rhs.dotSegment
    }

    /// Hashes what the equality above compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(encoded)
        hasher.combine(absoluteURL)
        hasher.combine(dotSegment)
    }

    /// The path with each interpolated value as `{}` (`/users/{}/repos`), for naming the operation in
    /// metrics and traces without the values; `nil` for a path made from encoded text, segments or a URL, or
    /// with more than four interpolated values. Made when asked for: building a path only notes where its
    /// values are.
    public var template: String? {
        guard let holes, !holes.overflowed else { return nil }
        let bytes = Array(encoded.utf8)
        var result: [UInt8] = []
        var start = 0
        for index in 0..<holes.count {
            let (from, to) = holes[index]
            result += bytes[start..<from] + Array("{}".utf8)
            start = to
        }
        result += bytes[start...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Up to four (start, end) UTF-8 offsets of interpolated values, 16 bits each, packed into two words so
    /// that building a path allocates nothing for its template.
    struct Holes: Sendable, Hashable {
        private var words: (low: UInt64, high: UInt64) = (0, 0)
        private(set) var count = 0
        /// More than four values, or offsets past 65,535: no template.
        private(set) var overflowed = false

        mutating func append(from: Int, to: Int) {
            guard count < 4, to <= Int(UInt16.max) else {
                overflowed = true
                return
            }
            let hole = (UInt64(from) | UInt64(to) << 16) << (32 * UInt64(count % 2))
            if count < 2 { words.low |= hole } else { words.high |= hole }
            count += 1
        }

        subscript(index: Int) -> (Int, Int) {
            let word = (index < 2 ? words.low : words.high) >> (32 * UInt64(index % 2))
            return (Int(word & 0xFFFF), Int(word >> 16 & 0xFFFF))
        }

        static func == (lhs: Holes, rhs: Holes) -> Bool {
            lhs.words == rhs.words && lhs.count == rhs.count && lhs.overflowed == rhs.overflowed
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.low)
            hasher.combine(words.high)
            hasher.combine(count)
        }
    }
}

extension RoutePath: ExpressibleByStringInterpolation {
    /// A path from a literal without interpolations.
    public init(stringLiteral value: String) {
        let encoded = PercentEncoding.pathLiteral.encode(value)
        self.init(encoded: encoded, holes: Holes())
    }

    /// A path from an interpolated literal.
    public init(stringInterpolation: StringInterpolation) {
        self.init(encoded: stringInterpolation.encoded, holes: stringInterpolation.holes)
        dotSegment = stringInterpolation.dotSegment
    }

    /// Builds a path: literal text stays, interpolated values become encoded segments.
    public struct StringInterpolation: StringInterpolationProtocol {
        var encoded: String
        var holes = Holes()
        var dotSegment: String?

        /// Reserves room for the literal.
        public init(literalCapacity: Int, interpolationCount: Int) {
            encoded = ""
            encoded.reserveCapacity(literalCapacity + interpolationCount * 8)
        }

        /// Appends literal text.
        public mutating func appendLiteral(_ literal: String) {
            encoded += PercentEncoding.pathLiteral.encode(literal)
        }

        /// Appends a value as one percent-encoded segment (`/` becomes `%2F`). A value of `.` or `..` makes
        /// the request fail with ``APIError/Kind/invalidRequest``: servers read every encoding of it as a
        /// path step.
        public mutating func appendInterpolation(_ value: some CustomStringConvertible) {
            appendSegment(value.description)
        }

        /// Appends an enum case's raw value as one percent-encoded segment.
        public mutating func appendInterpolation<T: RawRepresentable>(_ value: T)
        where T.RawValue: CustomStringConvertible {
            appendSegment(value.rawValue.description)
        }

        private mutating func appendSegment(_ text: String) {
            if dotSegment == nil, RoutePath.isDotSegment(text) { dotSegment = text }
            let start = encoded.utf8.count
            encoded += RoutePath.segment(text)
            holes.append(from: start, to: encoded.utf8.count)
        }

        /// Appends text that is already encoded, as a literal: `"/files/\(raw: "a/b")"` keeps the `/`.
        public mutating func appendInterpolation(raw value: String) {
            let start = encoded.utf8.count
            encoded += PercentEncoding.pathLiteral.encode(value)
            holes.append(from: start, to: encoded.utf8.count)
        }
    }
}
