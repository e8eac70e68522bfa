import Foundation
import Testing

/// Every relative link in README.md, ARCHITECTURE.md and CHANGELOG.md leads to a file or folder of the repository,
/// and every link into the DocC catalogue names one of its articles.
@Suite struct ReadmeLinkTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../..").standardized
    /// The folder of the DocC articles.
    static let catalog = root.appending(path: "Sources/Courier/Courier.docc")

    /// `text` without its code spans (the text between backticks, backticks included).
    static func withoutCodeSpans(_ text: Substring) -> String {
        var kept = ""
        var inSpan = false
        for character in text {
            if character == "`" {
                inSpan.toggle()
            } else if !inSpan {
                kept.append(character)
            }
        }
        return kept
    }

    /// A link destination without its title (`target "title"`) and without angle brackets (`<target>`).
    static func destination(_ text: Substring) -> String {
        let target = text.drop { $0 == " " }
        if target.hasPrefix("<") { return String(target.dropFirst().prefix { $0 != ">" }) }
        return String(target.prefix { $0 != " " })
    }

    /// The link targets of a Markdown document: inline links and images (`[text](target)`) and reference
    /// definitions (`[name]: target`), outside fenced code blocks and code spans.
    static func linkTargets(in markdown: String) -> [String] {
        var targets: [String] = []
        var inFence = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            let text = withoutCodeSpans(trimmed)
            if text.hasPrefix("["), let definition = text.range(of: "]: ") {
                targets.append(destination(text[definition.upperBound...]))
            }
            var rest = text[...]
            while let opening = rest.range(of: "](") {
                targets.append(destination(rest[opening.upperBound...].prefix { $0 != ")" }))
                rest = rest[opening.upperBound...]
            }
        }
        return targets.filter { !$0.isEmpty }
    }

    /// Whether a link target is a path in the repository: not a URL with a scheme, nor an anchor in the same page.
    static func isRelative(_ target: String) -> Bool {
        !target.hasPrefix("#") && !target.contains("://") && !target.hasPrefix("mailto:")
    }

    @Test func linkTargetsAreFoundOutsideCodeOnly() {
        let markdown = """
            See [the guide](Docs/Guide.md#setup "Setup"), [`Summary`](<Benchmarks/a b.md>) and
            [home](https://example.com); `[not](a-link.md)`.
            ```swift
            let pairs = [(1, 2)](0)
            ```
            [ref]: LICENSE
            """
        #expect(
            Self.linkTargets(in: markdown) == [
                "Docs/Guide.md#setup", "Benchmarks/a b.md", "https://example.com", "LICENSE",
            ])
        #expect(Self.linkTargets(in: markdown).filter(Self.isRelative).count == 3)
    }

    /// Each document with the fewest relative links it has, so that a parser that finds none fails.
    @Test(arguments: zip(["README.md", "ARCHITECTURE.md", "CHANGELOG.md"], [30, 0, 0]))
    func relativeLinksLeadToFilesOfTheRepository(document: String, fewest: Int) throws {
        let markdown = try String(contentsOf: Self.root.appending(path: document), encoding: .utf8)
        let targets = Self.linkTargets(in: markdown).filter(Self.isRelative)
        #expect(targets.count >= fewest, "found only \(targets.count) relative links in \(document)")
        for target in targets {
            let path = try #require(
                String(target.prefix { $0 != "#" }).removingPercentEncoding,
                "\(document) links to \(target), which is not a valid percent-encoded path")
            let url = Self.root.appending(path: path).standardized
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isFolder)
            #expect(exists, "\(document) links to \(target), which is not a file or folder of the repository")
            let inCatalog = url.path(percentEncoded: false).hasPrefix(Self.catalog.path(percentEncoded: false) + "/")
            guard exists, inCatalog else { continue }
            #expect(
                path.hasSuffix(".md") && !isFolder.boolValue,
                "\(document) links to \(target) in the DocC catalogue, which is not an article")
            let article = try String(contentsOf: url, encoding: .utf8)
            #expect(article.hasPrefix("# "), "\(document) links to \(target), which has no title: not an article")
        }
    }
}
