import BenchmarkClients
import Foundation

/// One measured cell of the end-to-end matrix: one client at one concurrency in one round.
struct CellResult: Codable {
    var client: ClientKind
    var concurrency: Int
    var round: Int
    var requests: Int
    var errors: Int
    var firstError: String?
    var seconds: Double
    var requestsPerSecond: Double
    var p50Microseconds: Double
    var p99Microseconds: Double
    var cpuMicrosecondsPerRequest: Double
    /// Context switches of the whole process per request (`nil` in results from before it was measured).
    var contextSwitchesPerRequest: Double?
    var allocationsPerRequest: Double?
    /// Requests nginx handled during the window (`nil` without `--server-status`).
    var serverRequests: Int?

    init(client: ClientKind, concurrency: Int, round: Int, window: LoadWindow) {
        self.client = client
        self.concurrency = concurrency
        self.round = round
        requests = window.requests
        errors = window.errors
        firstError = window.firstError
        seconds = window.seconds
        let done = Double(max(window.requests, 1))
        requestsPerSecond = Double(window.requests) / max(window.seconds, 1e-9)
        p50Microseconds = window.latencyMicroseconds(at: 50)
        p99Microseconds = window.latencyMicroseconds(at: 99)
        cpuMicrosecondsPerRequest = window.cpuMicroseconds / done
        contextSwitchesPerRequest = Double(window.contextSwitches) / done
        allocationsPerRequest = window.allocations.map { Double($0) / done }
    }

    /// One line for the progress log.
    var summary: String {
        let allocations = allocationsPerRequest.map { String(format: "%.1f", $0) } ?? "n/a"
        let failed = errors > 0 ? "  ERRORS \(errors): \(firstError ?? "")" : ""
        let miscounted = serverRequests.map { $0 == requests ? "" : "  SERVER COUNTED \($0)" } ?? ""
        let name = client.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)
        return String(
            format:
                "round %d  c=%-3d %@ %8.0f req/s  p50 %7.1f µs  p99 %8.1f µs  CPU %6.1f µs/req  cs %5.2f/req  allocs %@/req",
            round, concurrency, name, requestsPerSecond, p50Microseconds, p99Microseconds, cpuMicrosecondsPerRequest,
            contextSwitchesPerRequest ?? 0, allocations) + failed + miscounted
    }
}
