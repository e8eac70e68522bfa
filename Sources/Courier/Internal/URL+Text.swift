import Foundation

extension URL {
    /// The URL's text without trailing `/`s, so that a path starting with `/` can follow it.
    package var textWithoutTrailingSlash: String {
        var text = absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
