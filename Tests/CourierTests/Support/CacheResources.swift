/// The demo server's `/testing/cache/{key}` answer.
struct CachedResource: Decodable, Sendable, Equatable {
    let key: String
    let version: Int
    let served: Int
}

/// The demo server's `/testing/cache/{key}/stats` answer: requests received, and 304s among them.
struct CacheStats: Decodable, Sendable, Equatable {
    let requests: Int
    let notModified: Int
}
