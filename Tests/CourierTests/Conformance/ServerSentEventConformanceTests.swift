import Foundation
import Testing

@testable import Courier

/// Courier's server-sent-events parser against launchdarkly/sse-contract-tests' parsing cases
/// (`../shared/vectors/sse`), each run with its chunks as given and re-split into 1-byte and 2-byte chunks.
@Suite(.enabled(if: Vectors.available, "../shared/vectors is not beside the project"))
struct ServerSentEventConformanceTests {
    struct Vectors_: Decodable {
        let cases: [Case]
    }

    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        struct Event: Decodable, Sendable {
            let type: String
            let id: String
            let data: String
        }

        let name: String
        let chunks: [String]
        let events: [Event]
        let comments: [String]?
        let note: String?
        var testDescription: String { name }

        /// The chunks as bytes: UTF-8, or one byte per character where the note says the characters stand
        /// for raw bytes (Latin-1).
        var byteChunks: [[UInt8]] {
            guard note?.contains("Latin-1") == true else { return chunks.map { Array($0.utf8) } }
            return chunks.map { $0.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }
        }

        /// The bytes, split as `split` says.
        func chunks(_ split: Split) -> [[UInt8]] {
            let bytes = byteChunks
            switch split {
            case .asGiven: return bytes
            case .oneByte: return bytes.flatMap { $0 }.map { [$0] }
            case .twoBytes:
                let all = bytes.flatMap { $0 }
                return stride(from: 0, to: all.count, by: 2).map { Array(all[$0..<min($0 + 2, all.count)]) }
            }
        }
    }

    /// How a case's bytes are fed to the parser.
    enum Split: String, CaseIterable, Sendable {
        case asGiven, oneByte, twoBytes
    }

    static let cases: [Case] = {
        guard let folder = Vectors.folder,
            let data = try? Data(contentsOf: folder.appending(path: "sse/sse-parsing-vectors.json"))
        else { return [] }
        return (try? JSONDecoder().decode(Vectors_.self, from: data).cases) ?? []
    }()

    @Test func everyCaseIsThere() {
        #expect(Self.cases.count == 54)
    }

    @Test(arguments: cases, Split.allCases)
    func parse(_ vector: Case, split: Split) throws {
        let chunks = vector.chunks(split)
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var comments: [String] = []
        for chunk in chunks {
            for output in try parser.feed(chunk) {
                switch output {
                case .event(let event): events.append(event)
                case .comment(let comment): comments.append(comment)
                }
            }
        }
        #expect(events.map(\.type) == vector.events.map(\.type))
        #expect(events.map(\.data) == vector.events.map(\.data))
        #expect(events.map(\.lastEventID) == vector.events.map(\.id))
        if let expected = vector.comments { #expect(comments == expected) }
    }
}

/// Rules of the WHATWG parser that the contract cases don't cover.
@Suite struct ServerSentEventParserTests {
    func events(_ text: String, maxLineLength: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maxLineLength: maxLineLength)
        return try parser.feed(Array(text.utf8)).compactMap {
            if case .event(let event) = $0 { event } else { nil }
        }
    }

    @Test func retryTakesDigitsOnlyAndPersists() throws {
        let parsed = try events("retry: 2500\ndata: a\n\nretry: 3s\ndata: b\n\n")
        #expect(parsed.map(\.retry) == [.milliseconds(2500), .milliseconds(2500)])
    }

    @Test func anIDWithNULIsIgnoredAndIDsPersist() throws {
        let parsed = try events("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\ndata: c\n\n")
        #expect(parsed.map(\.lastEventID) == ["1", "1", "1"])
    }

    @Test func anIDTakesEffectOnlyWhenItsEventIsDispatched() throws {
        var parser = ServerSentEventParser()
        _ = try parser.feed(Array("id: 1\ndata: a\n\nid: 2\ndata: b\n".utf8))
        #expect(parser.currentLastEventID == "1")  // event 2 was cut off: a reconnection resumes after 1
        parser.startNewConnection()
        let events = try parser.feed(Array("data: c\n\n".utf8))
        #expect(events == [.event(ServerSentEvent(data: "c", lastEventID: "1"))])
    }

    @Test func bytesThatOnlyStartLikeABOMBelongToTheFirstLine() throws {
        var parser = ServerSentEventParser()
        let outputs = try parser.feed([0xEF, 0xBB] + Array("X: 1\ndata: a\n\n".utf8))
        #expect(outputs == [.event(ServerSentEvent(data: "a"))])  // the odd first line is a field nobody knows
    }

    @Test func theEventTypeIsResetByEveryBlankLine() throws {
        #expect(try events("event: x\n\ndata: a\n\n").map(\.type) == ["message"])
    }

    @Test func anEventWhoseDataNeverEndsFailsAtTheLimit() {
        #expect(throws: LineTooLong.self) {
            try events(String(repeating: "data: 0123456789\n", count: 200), maxLineLength: 1024)
        }
    }

    @Test func aPartialEventAtTheEndIsNotDispatched() throws {
        #expect(try events("data: whole\n\ndata: partial\n").map(\.data) == ["whole"])
    }

    @Test func aLineThatNeverEndsFailsAtTheLimit() {
        #expect(throws: LineTooLong.self) { try events(String(repeating: "x", count: 2000), maxLineLength: 1024) }
    }
}
