import BenchmarkClients

/// Runs closed-loop load: `concurrency` tasks each send one request after another until the time or the
/// request budget runs out, whichever comes first. Nothing here outlives a call.
struct LoadRunner {
    let concurrency: Int
    let duration: Duration
    let maxRequests: Int
    let countsAllocations: Bool

    /// A measured window: process CPU and allocations are read just before the tasks start and just after
    /// the last one ends.
    func run(_ fetch: @escaping Fetch) async -> LoadWindow {
        let quota = max(1, maxRequests / concurrency)
        let clock = ContinuousClock()
        let cpuBefore = ProcessCPU.microseconds()
        let switchesBefore = ProcessCPU.contextSwitches()
        let allocationsBefore = countsAllocations ? AllocationCounter.count() : 0
        let start = clock.now
        let deadline = start + duration
        var window = LoadWindow()
        await withTaskGroup(of: WorkerResult.self) { group in
            for _ in 0..<concurrency {
                group.addTask { await Self.work(fetch, until: deadline, quota: quota) }
            }
            for await result in group {
                window.requests += result.latencies.count
                window.errors += result.errors
                window.firstError = window.firstError ?? result.firstError
                window.latencies.append(contentsOf: result.latencies)
            }
        }
        window.seconds = Self.seconds(clock.now - start)
        window.cpuMicroseconds = ProcessCPU.microseconds() - cpuBefore
        window.contextSwitches = ProcessCPU.contextSwitches() - switchesBefore
        if countsAllocations { window.allocations = AllocationCounter.count() - allocationsBefore }
        window.latencies.sort()
        return window
    }

    private struct WorkerResult: Sendable {
        var latencies: [UInt64] = []
        var errors = 0
        var firstError: String?
    }

    /// One task's loop. It gives up after 100 errors: a broken setup should fail fast, not spin.
    private static func work(_ fetch: Fetch, until deadline: ContinuousClock.Instant, quota: Int) async
        -> WorkerResult
    {
        let clock = ContinuousClock()
        var result = WorkerResult()
        result.latencies.reserveCapacity(quota)
        while result.latencies.count + result.errors < quota, result.errors < 100 {
            let start = clock.now
            if start >= deadline { break }
            do {
                _ = try await fetch()
                result.latencies.append(nanoseconds(clock.now - start))
            } catch {
                result.errors += 1
                if result.firstError == nil { result.firstError = String(describing: error) }
            }
        }
        return result
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
