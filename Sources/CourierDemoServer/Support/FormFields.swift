import Foundation

/// The fields of an `application/x-www-form-urlencoded` body: `+` is a space, `%XX` a byte.
struct FormFields {
    /// The fields in order; a field without `=` has an empty value.
    let fields: [(name: String, value: String)]

    init(_ text: String) {
        fields = text.split(separator: "&", omittingEmptySubsequences: true).map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (Self.decode(parts[0]), parts.count > 1 ? Self.decode(parts[1]) : "")
        }
    }

    /// The value of the first field called `name`.
    subscript(name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Whether `contentType` names the form media type (parameters such as `charset` are allowed).
    static func isFormContentType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }.trimmingSpaces()
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = String(text.map { $0 == "+" ? " " : $0 })
        return spaced.removingPercentEncoding ?? spaced
    }
}
