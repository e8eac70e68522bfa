/// What one measured window of closed-loop load produced.
struct LoadWindow {
    var requests = 0
    var errors = 0
    var firstError: String?
    var seconds = 0.0
    var cpuMicroseconds = 0.0
    /// Voluntary + involuntary context switches of the whole process.
    var contextSwitches = 0
    /// `nil` when the malloc interposer isn't loaded.
    var allocations: Int?
    /// Every successful request's latency, in nanoseconds, sorted.
    var latencies: [UInt64] = []

    /// The latency at `percentile` (0–100), in microseconds.
    func latencyMicroseconds(at percentile: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = Int((percentile / 100 * Double(latencies.count)).rounded(.up)) - 1
        return Double(latencies[min(max(rank, 0), latencies.count - 1)]) / 1000
    }
}
