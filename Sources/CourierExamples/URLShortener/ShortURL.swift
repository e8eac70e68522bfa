/// A shortened URL, as the Google URL Shortener v1 returns it.
public struct ShortURL: Decodable, Sendable, Equatable {
    /// Always `urlshortener#url`.
    public let kind: String
    /// The short URL, such as `http://goo.gl/fbsS`.
    public let id: String
    /// The URL it leads to.
    public let longUrl: String
    /// `OK` on lookups; absent when shortening.
    public let status: String?
}
