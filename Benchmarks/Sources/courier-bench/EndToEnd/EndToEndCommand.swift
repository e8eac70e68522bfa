import ArgumentParser
import BenchmarkClients
import Foundation

/// `courier-bench e2e`: every client at every concurrency, interleaved, for several rounds.
struct EndToEndCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "e2e",
        abstract: "GET /users/octocat + JSON decode against a loopback server, raw clients vs Courier.")

    @Option(help: "The server, on 127.0.0.1.")
    var baseURL: String

    @Option(parsing: .upToNextOption, help: "Clients, in the order the first round runs them (rotated each round).")
    var clients: [ClientKind] = ClientKind.standard

    @Option(parsing: .upToNextOption, help: "Concurrency levels (tasks in flight).")
    var concurrency: [Int] = [1, 16, 64]

    @Option(help: "Rounds over the whole matrix; the report takes medians.")
    var rounds = 3

    @Option(help: "Seconds of measured load per cell.")
    var seconds = 2.5

    @Option(help: "Seconds of unmeasured warm-up before each cell.")
    var warmup = 0.5

    @Option(help: "Most requests per cell (the time limit usually ends a cell first).")
    var maxRequests = 300_000

    @Option(help: "Append every cell as one JSON line to this file.")
    var output: String?

    @Option(help: "nginx's stub_status URL; each cell's requests are then counted at the server too.")
    var serverStatus: String?

    @Option(help: "At exit, write the whole process's CPU and context switches (getrusage) to this JSON file.")
    var totals: String?

    func validate() throws {
        guard let url = URL(string: baseURL), url.host == "127.0.0.1" else {
            throw ValidationError("--base-url must be an http://127.0.0.1:PORT URL")
        }
        guard concurrency.allSatisfy({ (1...1024).contains($0) }), rounds >= 1, seconds > 0, seconds <= 60,
            warmup >= 0, warmup <= 60, maxRequests >= 1
        else { throw ValidationError("concurrency 1–1024, rounds ≥ 1, seconds and warmup 0–60, max-requests ≥ 1") }
    }

    func run() async throws {
        guard let url = URL(string: baseURL) else { throw ValidationError("bad --base-url") }
        let status = try serverStatus.map { text in
            guard let url = URL(string: text), let status = ServerStatus(url: url) else {
                throw ValidationError("--server-status must be an http://127.0.0.1:PORT/PATH URL")
            }
            return status
        }
        let countsAllocations = AllocationCounter.start()
        if !countsAllocations {
            log("note: malloc-interposer is not preloaded; allocations per request will read n/a")
        }
        let loadClients = try LoadClients(baseURL: url, connections: max(concurrency.max() ?? 1, 1))
        do {
            for round in 1...rounds {
                for level in concurrency {
                    // The order rotates each round, so no client always runs first (or right after another).
                    let offset = (round - 1) % clients.count
                    for kind in clients[offset...] + clients[..<offset] {
                        let cell = try await measure(
                            kind, concurrency: level, round: round, on: loadClients,
                            countingAllocations: countsAllocations, status: status)
                        log(cell.summary)
                        if let output { try ResultLines.append(cell, to: output) }
                    }
                }
            }
        } catch {
            try await loadClients.shutdown()
            throw error
        }
        try await loadClients.shutdown()
        if let totals, let used = ProcessCPU.totals() { try ResultLines.append(used, to: totals) }
    }

    /// Warms up, then measures, one client at one concurrency.
    private func measure(
        _ kind: ClientKind, concurrency: Int, round: Int, on clients: LoadClients, countingAllocations: Bool,
        status: ServerStatus?
    ) async throws -> CellResult {
        let measurement = CellMeasurement(
            seconds: seconds, warmup: warmup, maxRequests: maxRequests, countsAllocations: countingAllocations,
            status: status)
        return try await measurement.measure(kind, concurrency: concurrency, round: round, on: clients).cell
    }
}

/// Progress goes to standard error; standard output stays free for results.
func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
