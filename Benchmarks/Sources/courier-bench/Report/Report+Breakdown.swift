import BenchmarkClients
import Foundation

extension Report {
    /// Splits the extra cost of Courier over AsyncHTTPClient into the `ClientTransport` abstraction,
    /// the packaged transport's own extra work, and Courier's own path, and its extra cost over URLSession
    /// into swift-openapi-urlsession's bridging and Courier's own path, from differences of medians.
    func breakdownTable() -> [String] {
        var lines = [
            "### Where the extra cost over raw AsyncHTTPClient goes (CPU µs / allocations per request)",
            "",
            "Differences of the medians above. Abstraction: HTTPClientTransport alone − raw (HTTPTypes ↔ NIO "
                + "conversion, `HTTPBody`). Packaged transport: AsyncHTTPClientTransport alone − HTTPClientTransport "
                + "alone. Courier: Courier over a transport − that transport alone.",
            "",
            "| c | abstraction | packaged transport | Courier (over AHCTransport) | Courier (over Thin) "
                + "| total, Courier + AHCTransport − raw |",
            "|--:|--:|--:|--:|--:|--:|",
        ]
        for concurrency in endToEnd.concurrencies {
            func figures(_ kind: ClientKind) -> EndToEndSummary.Figures? { endToEnd[kind, concurrency] }
            guard let raw = figures(.rawAHC), let thinAlone = figures(.transportThinAHC),
                let packagedAlone = figures(.transportAHC), let courierPackaged = figures(.courierAHC),
                let courierThin = figures(.courierThinAHC)
            else { continue }
            lines.append(
                row([
                    "\(concurrency)", delta(thinAlone, raw), delta(packagedAlone, thinAlone),
                    delta(courierPackaged, packagedAlone), delta(courierThin, thinAlone), delta(courierPackaged, raw),
                ]))
        }
        lines += [
            "",
            "### Where the extra cost over raw URLSession goes (CPU µs / allocations per request)",
            "",
            "Abstraction: URLSessionTransport alone − raw URLSession (swift-openapi-urlsession's bridging). "
                + "Courier: Courier + URLSessionTransport − URLSessionTransport alone.",
            "",
            "| c | abstraction | Courier | total, Courier + URLSessionTransport − raw |",
            "|--:|--:|--:|--:|",
        ]
        for concurrency in endToEnd.concurrencies {
            guard let raw = endToEnd[.rawURLSession, concurrency],
                let alone = endToEnd[.transportURLSession, concurrency],
                let courier = endToEnd[.courierURLSession, concurrency]
            else { continue }
            lines.append(row(["\(concurrency)", delta(alone, raw), delta(courier, alone), delta(courier, raw)]))
        }
        return lines
    }

    private func delta(_ value: EndToEndSummary.Figures, _ base: EndToEndSummary.Figures) -> String {
        let cpu = String(format: "%+.1f µs", value.cpuPerRequest - base.cpuPerRequest)
        guard let own = value.allocationsPerRequest, let other = base.allocationsPerRequest else { return cpu }
        return cpu + String(format: " / %+.0f", own - other)
    }
}
