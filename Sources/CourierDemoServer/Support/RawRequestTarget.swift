package import Hummingbird

/// The request target exactly as it arrived on the request line, split at the first `?`.
///
/// Nothing is decoded or normalised: `/a%2Fb?x=a%2Bb` gives the path `/a%2Fb` and the query `x=a%2Bb`.
package struct RawRequestTarget {
    /// The path, still percent-encoded.
    package let path: Substring
    /// The query without its `?`; empty for a target ending in `?`, nil for one without `?`.
    package let query: Substring?

    package init(_ request: Request) {
        let target = request.head.path ?? ""
        if let questionMark = target.firstIndex(of: "?") {
            path = target[..<questionMark]
            query = target[target.index(after: questionMark)...]
        } else {
            path = target[...]
            query = nil
        }
    }
}
