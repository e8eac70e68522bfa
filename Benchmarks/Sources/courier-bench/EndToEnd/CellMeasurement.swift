import BenchmarkClients

/// How one cell of load is measured: one request first (a broken server or client fails the run at once), an
/// unmeasured warm-up, then the measured window; with nginx's counters read around them when given.
struct CellMeasurement {
    var seconds: Double
    var warmup: Double
    var maxRequests: Int
    var countsAllocations: Bool
    var status: ServerStatus?

    /// What a cell cost in connections: those nginx accepted from the first request to the end of the window
    /// (over TLS, a full handshake each), and the requests sent over the same span.
    struct Connections {
        var accepted: Int
        var requests: Int
        /// Connections per 1,000 requests.
        var perThousandRequests: Double { Double(accepted) * 1000 / Double(max(requests, 1)) }
    }

    /// Measures `kind` at `concurrency`; the connections come with `status`.
    func measure(_ kind: ClientKind, concurrency: Int, round: Int, on clients: LoadClients) async throws
        -> (cell: CellResult, connections: Connections?)
    {
        let fetch = clients.fetch(kind)
        let start = try status?.counters()
        _ = try await fetch()
        var warmupRequests = 0
        if warmup > 0 {
            let warmupRunner = LoadRunner(
                concurrency: concurrency, duration: .seconds(warmup), maxRequests: maxRequests,
                countsAllocations: false)
            warmupRequests = await warmupRunner.run(fetch).requests
        }
        let runner = LoadRunner(
            concurrency: concurrency, duration: .seconds(seconds), maxRequests: maxRequests,
            countsAllocations: countsAllocations)
        let before = try status?.counters()
        var cell = CellResult(client: kind, concurrency: concurrency, round: round, window: await runner.run(fetch))
        guard let start, let before, let after = try status?.counters() else { return (cell, nil) }
        cell.serverRequests = after.requests - before.requests - 1  // the second status request counts itself
        // Each status request is a connection of its own: the two after the first are not the client's.
        let connections = Connections(
            accepted: after.accepts - start.accepts - 2, requests: 1 + warmupRequests + cell.requests)
        return (cell, connections)
    }
}
