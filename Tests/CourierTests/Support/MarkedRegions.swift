import Foundation

/// Code between `// BEGIN <marker>: name` and `// END <marker>: name` (`README`, `DOCC`), de-indented to
/// column 0, with `static` dropped from `static func` and `static let` (the documents show that code at top
/// level).
enum MarkedRegions {
    static func extract(_ marker: String, from source: String) -> [(name: String, code: String)] {
        let begin = "// BEGIN \(marker): "
        let end = "// END \(marker): "
        var regions: [(String, String)] = []
        var current: (name: String, lines: [Substring], indent: Int)?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix(begin) {
                current = (String(trimmed.dropFirst(begin.count)), [], line.count - trimmed.count)
            } else if trimmed.hasPrefix(end), let region = current {
                let code = region.lines.map { $0.dropFirst(min(region.indent, $0.prefix { $0 == " " }.count)) }
                    .joined(separator: "\n")
                    .replacingOccurrences(of: "static func", with: "func")
                    .replacingOccurrences(of: "static let", with: "let")
                regions.append((region.name, code))
                current = nil
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return regions
    }
}
