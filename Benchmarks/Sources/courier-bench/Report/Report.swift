import BenchmarkClients
import BenchmarkSupport
import Foundation

/// The Markdown report: ratios first, then the absolute figures they come from.
struct Report {
    let header: [String]
    /// The main pass: unpinned, no interposer, as users run.
    let endToEnd: EndToEndSummary
    /// The same clients with client and nginx pinned to separate CPUs.
    var pinned: EndToEndSummary?
    /// Pinned with the malloc interposer preloaded and counting: the conditions the figures before #14 came from.
    var oldConditions: EndToEndSummary?
    var instructions: [InstructionCount] = []
    var crossCheck: CPUCrossCheck?
    let downloads: [DownloadResult]
    let uploads: [UploadResult]
    let micro: MicroResults?

    /// A row of the ratio tables: a variant over a raw client, and what the row is called.
    struct Comparison {
        let variant: ClientKind
        let baseline: ClientKind
        let title: String

        init(_ variant: ClientKind, over baseline: ClientKind? = nil, title: String? = nil) {
            self.variant = variant
            self.baseline = baseline ?? variant.baseline
            self.title = title ?? variant.title
        }
    }

    /// The rows, in table order: Courier as shipped like for like first (raw AsyncHTTPClient on the same
    /// `HTTPClient`), then the same against `HTTPClient.shared`, which compares configurations.
    private let compared: [Comparison] = [
        Comparison(.courierShipped, title: "**Courier as shipped** / raw AsyncHTTPClient on the same HTTPClient"),
        Comparison(
            .courierShipped, over: .rawAHCShared,
            title: "Courier as shipped / raw on HTTPClient.shared (configuration: 64 vs 8 connections)"),
        Comparison(.courierShippedOnLoop), Comparison(.transportAHC), Comparison(.courierAHC),
        Comparison(.transportThinAHC), Comparison(.courierThinAHC), Comparison(.transportURLSession),
        Comparison(.courierURLSession), Comparison(.courierStreamingURLSession),
    ]

    func render() -> String {
        var lines = ["# Courier benchmarks: latest run", ""] + header + [""]
        lines += ratioTable(endToEnd, heading: mainHeading) + [""] + checks() + [""]
        if !instructions.isEmpty { lines += instructionTable() + [""] }
        if let pinned {
            lines += ratioTable(pinned, heading: pinnedHeading) + [""]
        }
        if let oldConditions { lines += oldVersusNewTable(old: oldConditions) + [""] }
        lines += breakdownTable() + [""] + absoluteTable() + [""]
        if let micro { lines += microTable(micro) + [""] }
        if !downloads.isEmpty { lines += downloadTable() + [""] }
        if !uploads.isEmpty { lines += uploadTable() + [""] }
        return lines.joined(separator: "\n")
    }

    private var mainHeading: [String] {
        [
            "## End to end: GET /users/octocat (331-byte JSON) + decode, compared with the raw client",
            "",
            "\(endToEnd.rounds) interleaved rounds (the client order rotated each round), "
                + String(format: "%.1f", endToEnd.secondsPerCell)
                + " s per cell after a warm-up; client and nginx not pinned to CPUs and no malloc interposer "
                + "loaded, as users run. Each ratio is taken round by round against the raw client measured in the "
                + "same round; the table shows the median and, in brackets, the lowest and highest; Δ is the "
                + "difference of the two clients' medians. Raw and Courier "
                + "share one `HTTPClient` (64-connection pool) or one `URLSession` (64 connections per host); "
                + "\"Courier as shipped\" (`APIClient(baseURL:)`) is compared with raw AsyncHTTPClient on the "
                + "`HTTPClient` it ships with (`HTTPClientTransport.sharedClient`, the same pool and settings), and "
                + "in a second row with raw AsyncHTTPClient on `HTTPClient.shared`, as most users write it: that "
                + "row compares configurations (64 connections against 8), not Courier's own cost. CPU and context "
                + "switches are the whole client process's (`getrusage`: user + system time, `ru_nvcsw + "
                + "ru_nivcsw`). Allocations come from a separate pass with the malloc interposer preloaded. Above "
                + "1.00× costs more than raw, except req/s. \"alone\" calls the `ClientTransport` directly (`send`, "
                + "collect the `HTTPBody`, decode): the least any swift-openapi-runtime client pays.",
            "",
        ]
    }

    private var pinnedHeading: [String] {
        [
            "### The same, pinned: client on CPU 0, nginx on CPU 1 (taskset)",
            "",
            "Pinning is not how users run; it takes the cross-CPU wake-ups out, so the client batches more and "
                + "CPU per request falls. \(pinned?.rounds ?? 0) rounds.",
            "",
        ]
    }

    private func ratioTable(_ summary: EndToEndSummary, heading: [String]) -> [String] {
        var lines =
            heading + [
                "| variant / raw | c | req/s | p50 | p99 | CPU/req (Δ µs) | context switches/req (Δ) | allocs/req (Δ) |",
                "|---|--:|--:|--:|--:|--:|--:|--:|",
            ]
        for concurrency in summary.concurrencies {
            for comparison in compared {
                let variant = comparison.variant
                guard let mine = summary[variant, concurrency], let raw = summary[comparison.baseline, concurrency]
                else { continue }
                func paired(_ metric: (CellResult) -> Double?) -> String {
                    guard
                        let ratio = summary.paired(
                            variant, over: comparison.baseline, concurrency: concurrency, metric)
                    else { return "n/a" }
                    guard ratio.pairs > 1 else { return String(format: "%.2f×", ratio.median) }
                    return String(
                        format: "%.2f× (%.2f–%.2f)", ratio.median, ratio.range.lowerBound, ratio.range.upperBound)
                }
                let allocations: String
                if let own = mine.allocationsPerRequest, let base = raw.allocationsPerRequest {
                    allocations = ratio(own, base) + String(format: " (%+.0f)", own - base)
                } else {
                    allocations = "n/a"
                }
                lines.append(
                    row([
                        comparison.title, "\(concurrency)", paired(\.requestsPerSecond), paired(\.p50Microseconds),
                        paired(\.p99Microseconds),
                        paired(\.cpuMicrosecondsPerRequest)
                            + String(format: " (%+.1f)", mine.cpuPerRequest - raw.cpuPerRequest),
                        paired(\.contextSwitchesPerRequest) + switchesDelta(mine, raw),
                        allocations,
                    ]))
            }
        }
        return lines
    }

    /// The difference in context switches per request from the raw client's medians.
    private func switchesDelta(_ mine: EndToEndSummary.Figures, _ raw: EndToEndSummary.Figures) -> String {
        guard let own = mine.contextSwitchesPerRequest, let base = raw.contextSwitchesPerRequest else { return "" }
        return String(format: " (%+.2f)", own - base)
    }

    private func absoluteTable() -> [String] {
        var lines = [
            "### Absolute figures (medians; CPU range over the rounds)",
            "",
            "| client | c | req/s | p50 µs | p99 µs | CPU µs/req | CPU range | context switches/req | allocs/req |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        for concurrency in endToEnd.concurrencies {
            for client in endToEnd.clients {
                guard let figures = endToEnd[client, concurrency] else { continue }
                lines.append(
                    row([
                        client.title, "\(concurrency)", String(format: "%.0f", figures.requestsPerSecond),
                        String(format: "%.1f", figures.p50), String(format: "%.1f", figures.p99),
                        String(format: "%.1f", figures.cpuPerRequest),
                        String(format: "%.1f–%.1f", figures.cpuRange.lowerBound, figures.cpuRange.upperBound),
                        figures.contextSwitchesPerRequest.map { String(format: "%.2f", $0) } ?? "n/a",
                        figures.allocationsPerRequest.map { String(format: "%.1f", $0) } ?? "n/a",
                    ]))
            }
        }
        return lines
    }

    private func microTable(_ micro: MicroResults) -> [String] {
        var lines = [
            "## Micro: Courier's own path (ordo-one/benchmark; medians, one request per sample)",
            "",
            "(a) and (c) send through an in-process transport that returns a canned `200` with the same 331-byte "
                + "body at once, so they measure build + (empty) middleware chain + validation + collect + decode.",
            "",
            "| benchmark | µs | allocations | samples |",
            "|---|--:|--:|--:|",
        ]
        let rows: [(String, String)] = [
            ("(a) ", MicroBenchmarkNames.sendUpdate), ("(b) ", MicroBenchmarkNames.decode),
            ("(c) ", MicroBenchmarkNames.sendGet), ("(d) ", MicroBenchmarkNames.encodeBody),
            ("(e) ", MicroBenchmarkNames.sendGetNamed), ("(f) ", MicroBenchmarkNames.sendGetUnobserved),
            ("(g) ", MicroBenchmarkNames.sendGetObserved), ("(h) ", MicroBenchmarkNames.sendGetLean),
        ]
        for (label, name) in rows {
            guard let figures = micro[name] else { continue }
            lines.append(
                row([
                    label + name, String(format: "%.2f", figures.microseconds),
                    String(format: "%.0f", figures.allocations),
                    "\(figures.samples)",
                ]))
        }
        if let update = micro[MicroBenchmarkNames.sendUpdate], let decode = micro[MicroBenchmarkNames.decode] {
            lines.append(
                overheadRow("**Courier overhead (a) − (b)** (target < 10 µs, < 40 allocations)", update, decode))
            if let encode = micro[MicroBenchmarkNames.encodeBody] {
                let without = MicroResults.Figures(
                    microseconds: update.microseconds - encode.microseconds,
                    allocations: update.allocations - encode.allocations, samples: 0)
                lines.append(
                    overheadRow("… of which not the body's own JSON encoding, (a) − (b) − (d)", without, decode))
            }
        }
        if let get = micro[MicroBenchmarkNames.sendGet], let decode = micro[MicroBenchmarkNames.decode] {
            lines.append(overheadRow("Courier overhead for the end-to-end GET, (c) − (b)", get, decode))
            if let named = micro[MicroBenchmarkNames.sendGetNamed] {
                lines.append(overheadRow("… of which the default operationID, (c) − (e)", get, named))
            }
            if let unobserved = micro[MicroBenchmarkNames.sendGetUnobserved] {
                lines.append(
                    overheadRow(
                        "Looking for metrics and tracing backends when none is bootstrapped, (c) − (f) "
                            + "(target ≤ 1 µs, 0 allocations)", get, unobserved))
            }
            if let observed = micro[MicroBenchmarkNames.sendGetObserved] {
                lines.append(
                    overheadRow("Metrics and spans into in-memory backends (test kits), (g) − (c)", observed, get))
            }
            if let lean = micro[MicroBenchmarkNames.sendGetLean] {
                lines.append(
                    overheadRow(
                        "Metrics and spans into an aggregating meter and a recording tracer, (h) − (c)", lean, get))
            }
        }
        return lines
    }

    private func downloadTable() -> [String] {
        var lines = [
            "## 1 GiB download streamed to a file (a fresh process per run, clients interleaved)",
            "",
            "Peak RSS is `VmHWM` from `/proc/self/status` after the download (target < 64 MiB for Courier); the "
                + "highest over the runs. Throughput is the median; it is bounded by page-cache writes and varies "
                + "from run to run by ±40 %, so it only tells whether a client is far off.",
            "",
            "| client | runs | peak RSS MiB | RSS before MiB | MiB/s (median) | MiB/s range |",
            "|---|--:|--:|--:|--:|--:|",
        ]
        for (client, runs) in downloads.byClient { lines.append(row([client.title] + runs.sharedColumns)) }
        return lines
    }

    /// Tells on standard error which cells had failed requests.
    func warnAboutErrors() {
        for (key, figures) in endToEnd.figures where figures.errors > 0 {
            log("warning: \(key.client.rawValue) at c=\(key.concurrency) had \(figures.errors) failed requests")
        }
        for cell in endToEnd.serverCountMismatches().mismatched {
            log(
                "warning: nginx counted \(cell.serverRequests ?? 0) requests for \(cell.client.rawValue) at "
                    + "c=\(cell.concurrency) in round \(cell.round), the client \(cell.requests)")
        }
    }

    private func overheadRow(_ label: String, _ total: MicroResults.Figures, _ base: MicroResults.Figures) -> String {
        row([
            label, String(format: "%.2f", total.microseconds - base.microseconds),
            String(format: "%.0f", total.allocations - base.allocations), "",
        ])
    }

    func ratio(_ value: Double, _ base: Double) -> String {
        base > 0 ? String(format: "%.2f×", value / base) : "n/a"
    }

    func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }
}
