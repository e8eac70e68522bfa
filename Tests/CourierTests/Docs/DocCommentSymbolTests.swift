import Foundation
import Testing

/// Every name a `///` comment of Courier or CourierTesting gives as a symbol exists, so a renamed or removed type
/// cannot live on in the documentation. Checked: the name each double-backtick link starts with (`APIError` in
/// `APIError/Kind/apiError`), and every name ending in `Transport` in a code span. Each must be declared or
/// extended in Sources/Courier or Sources/CourierTesting (type, protocol, typealias, func, property, case), or
/// be one of ``dependencyNames``.
@Suite struct DocCommentSymbolTests {
    /// Names from other modules that the comments give: swift-openapi-runtime's transport protocol and the
    /// transports of swift-openapi-urlsession and swift-openapi-async-http-client.
    static let dependencyNames: Set<String> = ["ClientTransport", "URLSessionTransport", "AsyncHTTPClientTransport"]

    /// A comment's text outside fenced code blocks (listings are compiled, see `DocCListingTests`).
    static func prose(of comment: String) -> String {
        var inFence = false
        var kept: [Substring] = []
        for line in comment.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                inFence.toggle()
            } else if !inFence {
                kept.append(line)
            }
        }
        return kept.joined(separator: "\n")
    }

    /// The name each double-backtick link starts with: `APIError` for `APIError/Kind/apiError`, `send` for
    /// `send(_:as:)->_`. Operators, which start with no identifier, are left out.
    static func linkedNames(in prose: String) -> [String] {
        prose.matches(of: #/``([^`]+)``/#).compactMap { match in
            let name = match.output.1.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            return name.isEmpty ? nil : String(name)
        }
    }

    /// The names ending in `Transport` inside single-backtick code spans.
    static func transportNames(in prose: String) -> [String] {
        let withoutLinks = prose.replacing(#/``[^`]+``/#, with: " ")
        return withoutLinks.matches(of: #/`([^`\n]+)`/#).flatMap { span in
            span.output.1.matches(of: #/\b[A-Za-z_][A-Za-z0-9_]*Transport\b/#).map { String($0.output) }
        }
    }

    /// The names `source` declares or extends, comments left out. Over-inclusive on purpose (`case let x`
    /// adds `let`): a name declared anywhere counts, so only a name declared nowhere fails.
    static func declaredNames(in source: String) -> Set<String> {
        let keyword =
            #/
            \b (?: class | struct | enum | protocol | actor | typealias | associatedtype | func | var | let | case
            | extension ) \s+ ([A-Za-z_][A-Za-z0-9_]*)
            /#
        var names: Set<String> = ["init", "subscript", "deinit"]
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.firstRange(of: "//").map { line[..<$0.lowerBound] } ?? line
            for match in code.matches(of: keyword) { names.insert(String(match.output.1)) }
            // `case a, b(Int), c`: every name of the list.
            guard let cases = code.firstMatch(of: #/\bcase\s+(.*)/#) else { continue }
            for item in cases.output.1.split(separator: ",") {
                let name = item.drop { $0 == " " }.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                if !name.isEmpty { names.insert(String(name)) }
            }
        }
        return names
    }

    /// The Swift files of Courier and CourierTesting: where each is (`Courier/Client/APIClient.swift`) and its text.
    static func sources() throws -> [(place: String, text: String)] {
        try DocCListingTests.documentedSources.flatMap { module in
            try FileManager.default.subpathsOfDirectory(atPath: module.path(percentEncoded: false))
                .filter { $0.hasSuffix(".swift") }.sorted().map { path in
                    let text = try String(contentsOf: module.appending(path: path), encoding: .utf8)
                    return ("\(module.lastPathComponent)/\(path)", text)
                }
        }
    }

    @Test func everyNameACommentGivesAsASymbolExists() throws {
        let sources = try Self.sources()
        #expect(sources.count >= 100, "found only \(sources.count) Swift files in Courier and CourierTesting")
        let known = sources.reduce(into: Self.dependencyNames) { $0.formUnion(Self.declaredNames(in: $1.text)) }
        var links = 0
        for (place, text) in sources {
            for comment in DocCListingTests.docComments(in: text) {
                let prose = Self.prose(of: comment)
                let linked = Self.linkedNames(in: prose)
                links += linked.count
                for name in linked where !known.contains(name) {
                    Issue.record("\(place): a comment links ``\(name)``, declared nowhere (nor in dependencyNames)")
                }
                for name in Self.transportNames(in: prose) where !known.contains(name) {
                    Issue.record("\(place): a comment names `\(name)`, declared nowhere (nor in dependencyNames)")
                }
            }
        }
        #expect(links >= 400, "found only \(links) symbol links in the comments: is the scan broken?")
    }

    /// The scan finds the names a stale comment gives, and only declarations count as declared.
    @Test func scanFindsLinksTransportsAndDeclarations() {
        let comment = """
            Sends through ``OldClient/send(_:)->_`` and ``init(baseURL:)`` over `LegacyTransport(timeout: 5)`;
            ``ClientTransport`` is a link, not a span, and ``+(_:_:)`` an operator.
            ```swift
            let t = `FencedTransport`
            ```
            """
        let prose = Self.prose(of: comment)
        #expect(Self.linkedNames(in: prose) == ["OldClient", "init", "ClientTransport"])
        #expect(Self.transportNames(in: prose) == ["LegacyTransport"])
        let declared = Self.declaredNames(
            in: """
                public struct NewClient: Sendable {  // was struct OldClient
                    case a, b(Int), c
                    func send<E>(_ e: E) {}
                }
                extension HTTPField.Name {}
                """)
        #expect(declared.isSuperset(of: ["NewClient", "a", "b", "c", "send", "HTTPField"]))
        #expect(!declared.contains("OldClient"), "a name in a comment counted as declared")
    }
}
