public import Foundation

/// Named secrets looked up in sources, in the order you give: the first source that has a key wins.
///
/// ```swift
/// let secrets = Secrets([.environment(prefix: "COURIER_"), .jsonFile(jsonURL), .propertyList(plistURL)])
/// let key = try secrets["GOOGLE_API_KEY"]
/// let client = APIClient(baseURL: url) { $0.defaultQuery["key"] = .string(key.value) }
/// ```
/// A missing key is a ``SecretsError`` naming the key and every place looked; a malformed file is one
/// naming the file and what is wrong. Neither ever contains a secret's value.
public struct Secrets: Sendable {
    /// The sources, searched in order.
    public let sources: [SecretSource]

    /// Secrets from `sources`, searched in order.
    public init(_ sources: [SecretSource]) { self.sources = sources }

    /// The secret named `key` from the first source that has it.
    public subscript(key: String) -> Secret {
        get throws(SecretsError) {
            for source in sources {
                if let value = try source.lookup(key) { return Secret(value) }
            }
            throw SecretsError(missing: key, places: sources.map { $0.place(key) })
        }
    }
}

/// A secret that can't be had: missing everywhere, or a source that can't be read.
public struct SecretsError: Error, Sendable, CustomStringConvertible {
    /// The key that was asked for, when it is missing.
    public let key: String?
    /// Every place that was looked in, in order, when the key is missing.
    public let places: [String]
    /// The unreadable file, when a source is malformed.
    public let file: URL?
    /// One line saying what went wrong; never contains a secret.
    public let description: String

    init(missing key: String, places: [String]) {
        self.key = key
        self.places = places
        self.file = nil
        let looked = places.isEmpty ? "no sources were given" : "looked in " + places.joined(separator: ", ")
        description = "secret \"\(key)\" not found; \(looked)"
    }

    init(malformedFile url: URL, kind: String, problem: String) {
        key = nil
        places = []
        file = url
        description = "the \(kind) \(url.path(percentEncoded: false)) can't be used: \(problem)"
    }
}
