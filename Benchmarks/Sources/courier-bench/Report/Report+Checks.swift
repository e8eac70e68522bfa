import BenchmarkClients
import Foundation

/// Instructions per request from one `instructions.sh` workload (a JSON line of `INSTRUCTIONS_OUT`).
struct InstructionCount: Codable {
    /// `get`, `patch` (Courier's path over a canned transport) or `e2e CLIENT`.
    var workload: String
    var low: Int
    var high: Int
    var lowCount: Int
    var highCount: Int
    var perRequest: Int

    /// The client of an `e2e` workload.
    var client: ClientKind? {
        workload.hasPrefix("e2e ") ? ClientKind(rawValue: String(workload.dropFirst(4))) : nil
    }
}

/// The process's own `getrusage` totals set against `/usr/bin/time -v`'s, measured from outside.
struct CPUCrossCheck {
    var inside: ProcessCPU.Totals
    var outside: ProcessCPU.Totals

    /// Reads `/usr/bin/time -v`'s report ("User time (seconds): 41.20", "Voluntary context switches: 812").
    init?(inside: ProcessCPU.Totals, timeReport: String) {
        var values: [String: Double] = [:]
        for line in timeReport.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let value = Double(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            values[parts[0].trimmingCharacters(in: .whitespaces)] = value
        }
        guard let user = values["User time (seconds)"], let system = values["System time (seconds)"],
            let voluntary = values["Voluntary context switches"],
            let involuntary = values["Involuntary context switches"]
        else { return nil }
        self.inside = inside
        outside = ProcessCPU.Totals(
            userSeconds: user, systemSeconds: system, voluntarySwitches: Int(voluntary),
            involuntarySwitches: Int(involuntary))
    }
}

extension Report {
    /// Whether nginx saw every request the clients counted, and whether `getrusage` agrees with `time -v`.
    func checks() -> [String] {
        var lines = ["### Checks", ""]
        let counts = endToEnd.serverCountMismatches()
        if counts.checked == 0 {
            lines.append("- Requests were not counted at the server in this run (no `--server-status`).")
        } else if counts.mismatched.isEmpty {
            lines.append(
                "- **Requests counted at the server:** nginx's `stub_status` counter moved by exactly the client's "
                    + "count in all \(counts.checked) measured cells (\(counts.requests) requests): none counted "
                    + "twice, none missed.")
        } else {
            lines.append(
                "- **Requests counted at the server:** nginx disagreed with the client in \(counts.mismatched.count) "
                    + "of \(counts.checked) cells: "
                    + counts.mismatched.map {
                        "\($0.client.rawValue) c=\($0.concurrency) round \($0.round): client \($0.requests), "
                            + "nginx \($0.serverRequests ?? 0)"
                    }.joined(separator: "; ") + ".")
        }
        if let crossCheck {
            let inside = crossCheck.inside.userSeconds + crossCheck.inside.systemSeconds
            let outside = crossCheck.outside.userSeconds + crossCheck.outside.systemSeconds
            let switchesInside = crossCheck.inside.voluntarySwitches + crossCheck.inside.involuntarySwitches
            let switchesOutside = crossCheck.outside.voluntarySwitches + crossCheck.outside.involuntarySwitches
            lines.append(
                "- **CPU measured from outside:** the main pass's process reported "
                    + String(
                        format: "%.2f s user + %.2f s system", crossCheck.inside.userSeconds,
                        crossCheck.inside.systemSeconds)
                    + " and \(switchesInside) context switches by `getrusage(RUSAGE_SELF)` just before exit; "
                    + "`/usr/bin/time -v` around it measured "
                    + String(
                        format: "%.2f s + %.2f s", crossCheck.outside.userSeconds,
                        crossCheck.outside.systemSeconds)
                    + " and \(switchesOutside) ("
                    + String(format: "%+.1f %%", (outside - inside) / max(inside, 1e-9) * 100)
                    + " CPU, the rest of exit). So the per-cell figures, read the same way, are the whole "
                    + "process's: every thread, user and kernel.")
        }
        return lines
    }

    /// Instructions per request from callgrind, each client against its raw client.
    func instructionTable() -> [String] {
        var lines = [
            "## Instructions per request (callgrind, c = 1)",
            "",
            "`Benchmarks/instructions.sh e2e` runs each client under "
                + "`valgrind --tool=callgrind` for 1000 and for 4000 sequential GET + decode requests against the "
                + "same loopback nginx and divides the difference by 3000, so start-up and connection set-up cancel "
                + "out. The whole client process is counted (every thread); nginx is not. These counts move by about "
                + "±1 % from run to run (how many event-loop turns a request takes depends on timing); the counts "
                + "over the canned transport are exact for a given binary.",
            "",
            "| client | instructions/request | vs raw |",
            "|---|--:|--:|",
        ]
        let byClient = Dictionary(
            instructions.compactMap { count in count.client.map { ($0, count.perRequest) } },
            uniquingKeysWith: { $1 })
        for count in instructions {
            guard let client = count.client else {
                lines.append(
                    row(["Courier's own path over a canned transport: `\(count.workload)`", "\(count.perRequest)", ""]))
                continue
            }
            let base = byClient[client.baseline]
            lines.append(
                row([
                    client.title, "\(count.perRequest)",
                    client == client.baseline ? "" : base.map { ratio(Double(count.perRequest), Double($0)) } ?? "n/a",
                ]))
        }
        return lines
    }

    /// The same clients under the conditions the figures before issue #14 were measured in, next to the
    /// conditions users run in.
    func oldVersusNewTable(old: EndToEndSummary) -> [String] {
        var lines = [
            "## Old harness conditions against new, from this run",
            "",
            "Before issue #14, `run.sh` pinned client and nginx to separate CPUs and linked ordo-one's malloc "
                + "interposer into the load generator, where it sat in front of every `malloc` and `free` (a "
                + "16-byte header per block, an atomic add per call while counting). \"old\" repeats those "
                + "conditions; \"pinned\" pins without the interposer; \"new\" is the main pass above (neither). "
                + "Medians; CPU is µs per request.",
            "",
            "| client | c | old req/s | old CPU | pinned req/s | pinned CPU | new req/s | new CPU |",
            "|---|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for concurrency in endToEnd.concurrencies {
            for client in endToEnd.clients {
                guard let then = old[client, concurrency], let now = endToEnd[client, concurrency] else { continue }
                let middle = pinned?[client, concurrency]
                lines.append(
                    row([
                        client.title, "\(concurrency)", String(format: "%.0f", then.requestsPerSecond),
                        String(format: "%.1f", then.cpuPerRequest),
                        middle.map { String(format: "%.0f", $0.requestsPerSecond) } ?? "n/a",
                        middle.map { String(format: "%.1f", $0.cpuPerRequest) } ?? "n/a",
                        String(format: "%.0f", now.requestsPerSecond), String(format: "%.1f", now.cpuPerRequest),
                    ]))
            }
        }
        return lines
    }
}
