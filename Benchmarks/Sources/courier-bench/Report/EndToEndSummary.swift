/// The end-to-end cells reduced to medians over rounds, per client and concurrency.
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
    let clients: [ClientKind]
    let concurrencies: [Int]
    let rounds: Int
    let secondsPerCell: Double

    struct Key: Hashable {
        var client: ClientKind
        var concurrency: Int
    }

    init(cells: [CellResult]) {
        var clients: [ClientKind] = []
        var concurrencies: [Int] = []
        var grouped: [Key: [CellResult]] = [:]
        for cell in cells {
            if !clients.contains(cell.client) { clients.append(cell.client) }
            if !concurrencies.contains(cell.concurrency) { concurrencies.append(cell.concurrency) }
            grouped[Key(client: cell.client, concurrency: cell.concurrency), default: []].append(cell)
        }
        figures = grouped.mapValues { cells in
            let cpu = cells.map(\.cpuMicrosecondsPerRequest)
            let allocations = cells.compactMap(\.allocationsPerRequest)
            let switches = cells.compactMap(\.contextSwitchesPerRequest)
            return Figures(
                requestsPerSecond: median(cells.map(\.requestsPerSecond)),
                p50: median(cells.map(\.p50Microseconds)),
                p99: median(cells.map(\.p99Microseconds)),
                cpuPerRequest: median(cpu),
                cpuRange: (cpu.min() ?? 0)...(cpu.max() ?? 0),
                allocationsPerRequest: allocations.isEmpty ? nil : median(allocations),
                contextSwitchesPerRequest: switches.isEmpty ? nil : median(switches),
                rounds: cells.count,
                errors: cells.map(\.errors).reduce(0, +))
        }
        self.clients = clients
        self.concurrencies = concurrencies
        rounds = cells.map(\.round).max() ?? 0
        secondsPerCell = median(cells.map(\.seconds))
    }

    subscript(client: ClientKind, concurrency: Int) -> Figures? {
        figures[Key(client: client, concurrency: concurrency)]
    }
}
