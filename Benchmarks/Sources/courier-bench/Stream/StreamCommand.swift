import ArgumentParser
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore

/// `courier-bench stream`: reads a 100,000-event stream (nginx serves it from a file) and decodes every
/// event's JSON, Courier's streaming API against raw AsyncHTTPClient's bytes split by hand and decoded with
/// `JSONDecoder`; interleaved rounds, each variant's CPU from the whole process.
struct StreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream",
        abstract: "Courier's events()/records() vs raw AsyncHTTPClient bytes + JSONDecoder, on a 100k-event stream.")

    @Option(help: "The server, on 127.0.0.1: GET <base-url>/events.txt (SSE) and /records.jsonl (JSON Lines).")
    var baseURL: String

    @Option(help: "Interleaved rounds (the order rotates each round).")
    var rounds = 5

    @Option(help: "Events in each file.")
    var events = 100_000

    @Option(help: "Append each run as one JSON line to this file.")
    var output: String?

    /// The JSON each event carries.
    struct Token: Decodable {
        let index: Int
        let token: String
    }

    enum Variant: String, CaseIterable, Codable {
        case rawSSE = "raw-ahc-sse"
        case courierSSE = "courier-sse"
        /// With an idle timeout: the body is read ahead by a task of its own, watched by another.
        case courierSSEIdle = "courier-sse-idle"
        case rawJSONLines = "raw-ahc-jsonl"
        case courierJSONLines = "courier-jsonl"

        var raw: Variant {
            switch self {
            case .rawSSE, .courierSSE, .courierSSEIdle: .rawSSE
            case .rawJSONLines, .courierJSONLines: .rawJSONLines
            }
        }
    }

    struct Run: Codable {
        let variant: Variant
        let round: Int
        let events: Int
        let seconds: Double
        let cpuMicroseconds: Double
        var eventsPerSecond: Double { Double(events) / seconds }
        var cpuPerEvent: Double { cpuMicroseconds / Double(events) }
    }

    func run() async throws {
        guard let url = URL(string: baseURL), url.host == "127.0.0.1" else {
            throw ValidationError("--base-url must be an http://127.0.0.1:PORT URL")
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let api = APIClient(baseURL: url)  // as shipped
        var runs: [Run] = []
        do {
            // One unrecorded pass warms up connections and code.
            for variant in Variant.allCases { _ = try await read(variant, url: url, httpClient: httpClient, api: api) }
            for round in 0..<rounds {
                // The order rotates each round, so no variant always runs first.
                let variants = Variant.allCases
                let offset = round % variants.count
                for variant in variants[offset...] + variants[..<offset] {
                    let cpuBefore = ProcessCPU.microseconds()
                    let start = ContinuousClock.now
                    let count = try await read(variant, url: url, httpClient: httpClient, api: api)
                    let elapsed = (ContinuousClock.now - start).components
                    let run = Run(
                        variant: variant, round: round, events: count,
                        seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18,
                        cpuMicroseconds: ProcessCPU.microseconds() - cpuBefore)
                    guard count == events else { throw Mismatch(variant: variant, count: count, expected: events) }
                    runs.append(run)
                    if let output { try ResultLines.append(run, to: output) }
                }
            }
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
        print(Self.summary(runs))
    }

    /// Medians per variant, and Courier's paired ratios against the raw client of the same round.
    static func summary(_ runs: [Run]) -> String {
        var lines = [
            "| variant | events/s | CPU µs/event | events/s vs raw | CPU/event vs raw |", "|---|--:|--:|--:|--:|",
        ]
        for variant in Variant.allCases {
            let mine = runs.filter { $0.variant == variant }
            guard !mine.isEmpty else { continue }
            let raws = Dictionary(
                uniqueKeysWithValues: runs.filter { $0.variant == variant.raw }.map { ($0.round, $0) })
            let speed = median(
                mine.compactMap { run in raws[run.round].map { run.eventsPerSecond / $0.eventsPerSecond } })
            let cpu = median(mine.compactMap { run in raws[run.round].map { run.cpuPerEvent / $0.cpuPerEvent } })
            lines.append(
                String(
                    format: "| %@ | %.0f | %.2f | %.2f× | %.2f× |", variant.rawValue,
                    median(mine.map(\.eventsPerSecond)), median(mine.map(\.cpuPerEvent)), speed, cpu))
        }
        return lines.joined(separator: "\n")
    }

    struct Mismatch: Error, CustomStringConvertible {
        let variant: Variant
        let count: Int
        let expected: Int
        var description: String { "\(variant.rawValue) read \(count) events, not \(expected)" }
    }

    /// Reads the whole stream one way; returns how many events decoded.
    private func read(_ variant: Variant, url: URL, httpClient: HTTPClient, api: APIClient) async throws -> Int {
        let decoder = JSONDecoder()
        var count = 0
        switch variant {
        case .courierSSE, .courierSSEIdle:
            let idleTimeout: Duration? = variant == .courierSSEIdle ? .seconds(30) : nil
            let request = APIRequest<Void>.get("/events.txt")
            for try await event in api.events(request, reconnecting: .never, idleTimeout: idleTimeout) {
                _ = try event.decode(Token.self, using: decoder)
                count += 1
            }
        case .courierJSONLines:
            for try await _ in api.records(APIRequest<Token>.get("/records.jsonl")) { count += 1 }
        case .rawSSE, .rawJSONLines:
            let path = variant == .rawSSE ? "/events.txt" : "/records.jsonl"
            let response = try await httpClient.execute(
                HTTPClientRequest(url: url.absoluteString + path), timeout: .minutes(1))
            var splitter = HandSplitter(sse: variant == .rawSSE)
            for try await buffer in response.body {
                try splitter.feed(buffer) { data in
                    _ = try decoder.decode(Token.self, from: data)
                    count += 1
                }
            }
        }
        return count
    }
}

/// What a user writes by hand over raw bytes: cut at "\n\n" (an SSE event, whose `data: ` line is the
/// JSON) or at "\n" (a JSON line), carrying the unfinished rest to the next chunk.
struct HandSplitter {
    let sse: Bool
    private var carry: [UInt8] = []

    init(sse: Bool) { self.sse = sse }

    mutating func feed(_ buffer: ByteBuffer, _ body: (Data) throws -> Void) throws {
        carry.append(contentsOf: buffer.readableBytesView)
        let newline = UInt8(ascii: "\n")
        var start = 0
        var scan = 0
        while let end = carry[scan...].firstIndex(of: newline) {
            if !sse {
                if end > start { try body(Data(carry[start..<end])) }
                start = end + 1
                scan = start
                continue
            }
            // An event ends at an empty line: "\n\n".
            guard end + 1 < carry.count else { break }
            if carry[end + 1] == newline {
                try emitData(carry[start..<end], body)
                start = end + 2
                scan = start
            } else {
                scan = end + 1
            }
        }
        carry.removeFirst(start)
    }

    private func emitData(_ event: ArraySlice<UInt8>, _ body: (Data) throws -> Void) throws {
        let prefix = Array("data: ".utf8)
        for line in event.split(separator: UInt8(ascii: "\n")) where line.starts(with: prefix) {
            try body(Data(line.dropFirst(prefix.count)))
        }
    }
}
