import Foundation
import Testing

/// The sample run in the article "Example clients and the demo tour" shows the tour's sections and steps as
/// `Sources/courier-demo` declares them, so a step added, renamed or removed without a new sample fails here.
@Suite struct TourSampleTests {
    typealias Section = (title: String, steps: [String])

    static let root = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../..").standardized
    static let article = root.appending(path: "Sources/Courier/Courier.docc/ExampleClients.md")
    static let tourSources = root.appending(path: "Sources/courier-demo")
    /// How much of a step's name the tour prints: `TourOutput` pads names to this width, and cuts longer ones.
    static let nameWidth = 40
    /// What to do when this test fails.
    static let remedy = "run .build/debug/courier-demo and paste its output into ExampleClients.md, the port as PORT"

    /// The string literal that starts right after `prefix` in `line`, unescaped; `nil` when there is none.
    static func literal(after prefix: String, in line: Substring) -> String? {
        guard let start = line.range(of: prefix)?.upperBound else { return nil }
        var text = ""
        var escaped = false
        for character in line[start...] {
            if escaped {
                text.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                return text
            } else {
                text.append(character)
            }
        }
        return nil
    }

    /// The tour's sections and step names as declared (`output.section("…")`, `output.step("…")`), each file's
    /// in the order written, the names cut as the tour prints them.
    static func tourSections() throws -> [Section] {
        var sections: [Section] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: tourSources.path(percentEncoded: false))
            .filter { $0.hasSuffix(".swift") }.sorted()
        for file in files {
            let source = try String(contentsOf: tourSources.appending(path: file), encoding: .utf8)
            for line in source.split(separator: "\n") {
                if let title = literal(after: "output.section(\"", in: line) {
                    sections.append((title, []))
                } else if let step = literal(after: "output.step(\"", in: line) {
                    if sections.isEmpty { sections.append(("(a step before any section in \(file))", [])) }
                    sections[sections.count - 1].steps.append(printed(step))
                }
            }
        }
        return sections
    }

    /// A step's name as the tour's output line shows it, without the padding.
    static func printed(_ name: some StringProtocol) -> String {
        var shown = String(name.prefix(nameWidth))
        while shown.last == " " { shown.removeLast() }
        return shown
    }

    /// The article's sample run (the `text` listing that starts with the tour's title line): its sections and
    /// step names, and its last line, the summary.
    static func sample() throws -> (sections: [Section], summary: String) {
        let markdown = try String(contentsOf: article, encoding: .utf8)
        let run = try #require(
            DocCListingTests.codeBlocks(in: markdown).first { $0.code.hasPrefix("Courier tour against ") },
            "\(article.lastPathComponent) shows no run of the tour")
        var lines = run.code.split(separator: "\n").dropFirst()
        let summary = String(lines.popLast() ?? "")
        var sections: [Section] = []
        for line in lines {
            if line.hasPrefix("  ✓ ") || line.hasPrefix("  ✗ ") {
                if sections.isEmpty { sections.append(("(a step before any section)", [])) }
                sections[sections.count - 1].steps.append(printed(line.dropFirst(4)))
            } else if !line.hasPrefix(" ") {
                sections.append((String(line), []))
            }
        }
        return (sections, summary)
    }

    @Test func theSampleRunShowsTheToursSectionsAndSteps() throws {
        let sample = try Self.sample()
        // The tour runs its sections in the order CourierDemoTests checks them in.
        let order = CourierDemoTests.sections
        func position(_ section: Section) -> Int { order.firstIndex { section.title.hasPrefix($0) } ?? order.count }
        let declared = try Self.tourSections()
        for section in declared where position(section) == order.count {
            Issue.record("the tour's section \"\(section.title)\" is missing from CourierDemoTests.sections")
        }
        let tour = declared.sorted { position($0) < position($1) }
        #expect(tour.count >= 8, "found only \(tour.count) sections in \(Self.tourSources.path(percentEncoded: false))")
        #expect(
            sample.sections.map(\.title) == tour.map(\.title),
            "the sample's sections are not the tour's: \(Self.remedy)")
        for (shown, ran) in zip(sample.sections, tour) where shown.title == ran.title {
            #expect(
                shown.steps == ran.steps,
                "the sample shows \(shown.steps) in \"\(shown.title)\", the tour runs \(ran.steps): \(Self.remedy)")
        }
        let steps = tour.reduce(0) { $0 + $1.steps.count }
        #expect(
            sample.summary.hasPrefix("All \(steps) steps succeeded in "),
            "the sample ends with \"\(sample.summary)\", not with all \(steps) steps succeeding: \(Self.remedy)")
    }
}
