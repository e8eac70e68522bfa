import Foundation

extension URL {
    /// The URL's text without trailing `/`s, so that a path starting with `/` can follow it.
    package var textWithoutTrailingSlash: String {
        var text = absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}

extension String.UTF8View {
    /// In URL text `scheme://authority/…`: the `:` that ends the scheme, and the authority's bytes (up to the
    /// first `/`, `?` or `#`); `nil` when the text up to its first `:` isn't followed by `//`. By byte: the
    /// delimiters are ASCII, and a search by Character (or through `URL`) costs thousands of instructions.
    func schemeAndAuthority() -> (schemeEnd: Index, authority: SubSequence)? {
        guard let colon = firstIndex(of: UInt8(ascii: ":")), self[colon...].starts(with: "://".utf8) else {
            return nil
        }
        let authority = self[index(colon, offsetBy: 3)...].prefix {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        }
        return (colon, authority)
    }
}
