import BenchmarkClients

/// The end-to-end cells reduced to medians over rounds, per client and concurrency, and ratios paired by
/// round (each variant against its raw client measured next to it in the same round).
struct EndToEndSummary {
    struct Figures {
        var requestsPerSecond: Double
        var p50: Double
        var p99: Double
        var cpuPerRequest: Double
        /// The lowest and highest CPU per request over the rounds, to show the noise.
        var cpuRange: ClosedRange<Double>
        var allocationsPerRequest: Double?
        var contextSwitchesPerRequest: Double?
        var rounds: Int
        var errors: Int
    }

    let figures: [Key: Figures]
    /// Every cell, by client and concurrency, for pairing rounds.
    private let cells: [Key: [CellResult]]
    let clients: [ClientKind]
    let concurrencies: [Int]
    let rounds: Int
    let secondsPerCell: Double

    struct Key: Hashable {
        var client: ClientKind
        var concurrency: Int
    }

    /// Summarises `cells`; allocations come from `allocationCells` when given (a separate pass with the
    /// malloc interposer preloaded, which slows every allocation), else from `cells`.
    init(cells: [CellResult], allocationCells: [CellResult]? = nil) {
        var clients: [ClientKind] = []
        var concurrencies: [Int] = []
        var grouped: [Key: [CellResult]] = [:]
        for cell in cells {
            if !clients.contains(cell.client) { clients.append(cell.client) }
            if !concurrencies.contains(cell.concurrency) { concurrencies.append(cell.concurrency) }
            grouped[Key(client: cell.client, concurrency: cell.concurrency), default: []].append(cell)
        }
        var allocationsByKey: [Key: [Double]] = [:]
        for cell in allocationCells ?? cells {
            guard let allocations = cell.allocationsPerRequest else { continue }
            allocationsByKey[Key(client: cell.client, concurrency: cell.concurrency), default: []].append(allocations)
        }
        figures = grouped.map { key, cells -> (Key, Figures) in
            let cpu = cells.map(\.cpuMicrosecondsPerRequest)
            let allocations = allocationsByKey[key] ?? []
            let switches = cells.compactMap(\.contextSwitchesPerRequest)
            return (
                key,
                Figures(
                    requestsPerSecond: median(cells.map(\.requestsPerSecond)),
                    p50: median(cells.map(\.p50Microseconds)),
                    p99: median(cells.map(\.p99Microseconds)),
                    cpuPerRequest: median(cpu),
                    cpuRange: (cpu.min() ?? 0)...(cpu.max() ?? 0),
                    allocationsPerRequest: allocations.isEmpty ? nil : median(allocations),
                    contextSwitchesPerRequest: switches.isEmpty ? nil : median(switches),
                    rounds: cells.count,
                    errors: cells.map(\.errors).reduce(0, +))
            )
        }.reduce(into: [:]) { $0[$1.0] = $1.1 }
        self.cells = grouped
        self.clients = clients
        self.concurrencies = concurrencies
        rounds = cells.map(\.round).max() ?? 0
        secondsPerCell = median(cells.map(\.seconds))
    }

    subscript(client: ClientKind, concurrency: Int) -> Figures? {
        figures[Key(client: client, concurrency: concurrency)]
    }

    /// A ratio taken round by round: its median over the rounds, and the lowest and highest.
    struct Paired {
        var median: Double
        var range: ClosedRange<Double>
        var pairs: Int
    }

    /// `metric` of `variant` over `metric` of `baseline` (its raw client unless given), paired by round.
    func paired(
        _ variant: ClientKind, over baseline: ClientKind? = nil, concurrency: Int, _ metric: (CellResult) -> Double?
    ) -> Paired? {
        let baseline = cells[Key(client: baseline ?? variant.baseline, concurrency: concurrency)] ?? []
        let ratios = (cells[Key(client: variant, concurrency: concurrency)] ?? []).compactMap { cell -> Double? in
            guard let raw = baseline.first(where: { $0.round == cell.round }), let base = metric(raw), base > 0,
                let value = metric(cell)
            else { return nil }
            return value / base
        }
        guard let low = ratios.min(), let high = ratios.max() else { return nil }
        return Paired(median: median(ratios), range: low...high, pairs: ratios.count)
    }

    /// Cells whose request count nginx did not confirm, and how many cells it checked.
    func serverCountMismatches() -> (mismatched: [CellResult], checked: Int, requests: Int) {
        let counted = cells.values.joined().filter { $0.serverRequests != nil }
        return (
            counted.filter { $0.serverRequests != $0.requests }, counted.count,
            counted.map(\.requests).reduce(0, +)
        )
    }
}
