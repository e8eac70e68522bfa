import BenchmarkClients
import Foundation

/// The TLS cells as a Markdown table: per protocol and concurrency, medians over rounds, Courier's ratios
/// paired with raw AsyncHTTPClient of the same round, and connections per 1,000 requests; then HTTP/2 at the
/// highest concurrency against HTTP/1.1.
struct TLSTable {
    let cells: [TLSCommand.Cell]
    let concurrencies: [Int]

    var markdown: String {
        var lines = [
            "| protocol | c | Courier req/s | raw req/s | req/s, Courier ÷ raw | CPU µs/req Courier | raw | CPU, Courier ÷ raw | connections per 1,000 requests |",
            "|---|---:|---:|---:|---|---:|---:|---|---:|",
        ]
        let protocols = cells.map(\.httpProtocol).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for name in protocols {
            let mine = cells.filter { $0.httpProtocol == name }
            let summary = EndToEndSummary(cells: mine.map(\.cell))
            for level in concurrencies {
                guard let courier = summary[.courierShipped, level], let raw = summary[.rawAHCCourierClient, level]
                else { continue }
                let throughput = summary.paired(.courierShipped, concurrency: level) { $0.requestsPerSecond }
                let cpu = summary.paired(.courierShipped, concurrency: level) { $0.cpuMicrosecondsPerRequest }
                let spans = mine.filter { $0.cell.concurrency == level && $0.connectionsAccepted >= 0 }
                let accepted = spans.map(\.connectionsAccepted).reduce(0, +)
                let requests = spans.map(\.requestsSpanned).reduce(0, +)
                let errors = courier.errors + raw.errors
                lines.append(
                    "| \(name) | \(level) | \(Self.whole(courier.requestsPerSecond)) | \(Self.whole(raw.requestsPerSecond)) | "
                        + "\(Self.ratio(throughput)) | \(Self.one(courier.cpuPerRequest)) | \(Self.one(raw.cpuPerRequest)) | "
                        + "\(Self.ratio(cpu)) | \(String(format: "%.3f", Double(accepted) * 1000 / Double(max(requests, 1))))"
                        + " (\(accepted) in \(requests))\(errors > 0 ? " — \(errors) errors" : "") |")
            }
        }
        // HTTP/2 over its one connection against HTTP/1.1 at the same concurrency, and against HTTP/1.1 on one
        // connection (one request in flight) when measured.
        if let top = concurrencies.max(), protocols.count == 2 {
            lines.append("")
            for kind in TLSCommand.clients {
                let h2 = requestsPerSecond(of: kind, "HTTP/2", top)
                let h1 = requestsPerSecond(of: kind, "HTTP/1.1", top)
                var line =
                    "\(TLSCommand.title(of: kind)): HTTP/2 at c = \(top) \(Self.whole(h2)) req/s over one connection; "
                    + "HTTP/1.1 at c = \(top) \(Self.whole(h1)) req/s (\(String(format: "%.2f", h2 / max(h1, 1)))×)"
                if top > 1, concurrencies.contains(1) {
                    let h1One = requestsPerSecond(of: kind, "HTTP/1.1", 1)
                    line +=
                        ", at c = 1 on one connection \(Self.whole(h1One)) req/s "
                        + "(\(String(format: "%.2f", h2 / max(h1One, 1)))×)"
                }
                lines.append(line + ".")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func requestsPerSecond(of kind: ClientKind, _ name: String, _ level: Int) -> Double {
        let values = cells.filter { $0.httpProtocol == name && $0.cell.client == kind && $0.cell.concurrency == level }
        return values.isEmpty ? 0 : median(values.map(\.cell.requestsPerSecond))
    }

    private static func whole(_ value: Double) -> String { String(format: "%.0f", value) }
    private static func one(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func ratio(_ paired: EndToEndSummary.Paired?) -> String {
        guard let paired else { return "n/a" }
        return String(
            format: "%.2f× [%.2f–%.2f]", paired.median, paired.range.lowerBound, paired.range.upperBound)
    }
}
