import CAllocatorStats
import Foundation
import Synchronization

/// Peak growth of the whole process's memory while some work runs, for the memory-bound suites.
///
/// Resident memory is a property of the whole process, so those suites run in a `swift test` of their own,
/// with nothing else running: `scripts/test` skips every suite named `…MemoryTests` in the main run and then
/// runs them alone (directly: `COURIER_MEMORY_TESTS=1 swift test --filter MemoryTests`).
enum MemoryProbe {
    /// Whether the memory-bound suites run: only when `scripts/test` runs them on their own.
    static var runAlone: Bool { ProcessInfo.processInfo.environment["COURIER_MEMORY_TESTS"] == "1" }
    /// Whether resident memory can be read here (Linux `/proc`). The memory-bound suites need it too:
    /// elsewhere every growth would read 0, and every bound would pass.
    static var canMeasure: Bool { residentMemory() != nil }
    static let mebibyte: Int64 = 1024 * 1024

    /// How much memory grew at its peak while `work` ran and in the 250 ms after (a transfer cancelled at a
    /// limit may still deliver what was in flight), sampled every 10 ms, and where it started.
    struct Growth: CustomStringConvertible, Sendable {
        /// Growth in bytes the C allocator handed out; `nil` where the allocator can't say.
        let allocated: Int64?
        /// Growth in resident memory, which also counts freed memory glibc keeps in its arenas.
        let resident: Int64
        /// Resident memory when the work began.
        let residentBefore: Int64

        var residentPeak: Int64 { residentBefore + resident }

        var description: String {
            let held = allocated.map { "\($0 / mebibyte) MiB allocated, " } ?? ""
            return "\(held)\(resident / mebibyte) MiB resident (peak \(residentPeak / mebibyte) MiB)"
        }
    }

    /// Peak growth on two runs of the same work. The first pays for what starts lazily (a transport's
    /// threads and pools, their allocator arenas, a server's caches, code touched for the first time), so
    /// bounds are checked on the second. What starts lazily does so in the first megabytes, so the first run
    /// may move less (``warmUpShare``): a gibibyte measured twice took a minute per suite on 2 cores.
    struct TwoRuns: CustomStringConvertible, Sendable {
        let first: Growth
        let second: Growth

        var description: String { "\(first) on the first run, \(second) on the second" }
    }

    /// How much of the measured run's work a warm-up run does: an eighth (128 MiB of a gibibyte).
    static func warmUpShare(of amount: Int) -> Int { amount / 8 }

    /// Runs `work` twice (passing 1, then 2), measuring each run as ``peakGrowth(during:)`` does.
    static func peakGrowthOfTwoRuns(_ work: (_ run: Int) async throws -> Void) async rethrows -> TwoRuns {
        let first = try await peakGrowth { try await work(1) }
        let second = try await peakGrowth { try await work(2) }
        return TwoRuns(first: first, second: second)
    }

    /// Runs `work` while sampling memory every 10 ms, and for 250 ms after it, and returns the peak growth.
    /// Freed memory glibc keeps is given back first (`malloc_trim`), so one measurement's peak does not hide
    /// the next one's.
    static func peakGrowth(during work: () async throws -> Void) async rethrows -> Growth {
        courier_release_free_memory()
        let allocated = allocatedBytes() == nil ? nil : Peak { allocatedBytes() }
        let resident = Peak { residentMemory() }
        // Samples until told how many more to take. Real time on purpose: memory is measured as it changes
        // while the network and the transport work, and for 25 samples (about 250 ms) after.
        let remaining = Atomic<Int>(.max)
        let sampler = Task {
            while !Task.isCancelled, remaining.subtract(1, ordering: .relaxed).oldValue > 0 {
                allocated?.sample()
                resident.sample()
                try? await Task.sleep(for: .milliseconds(10))  // Real time on purpose: samples while it runs.
            }
        }
        defer { sampler.cancel() }
        try await work()
        remaining.store(25, ordering: .relaxed)
        await sampler.value
        allocated?.sample()
        resident.sample()
        return Growth(allocated: allocated?.growth, resident: resident.growth, residentBefore: resident.baseline)
    }

    /// The highest value a measure reached while sampled.
    private final class Peak: Sendable {
        let baseline: Int64
        let highest: Atomic<Int64>
        let measure: @Sendable () -> Int64?

        init(_ measure: @escaping @Sendable () -> Int64?) {
            self.measure = measure
            baseline = measure() ?? 0
            highest = Atomic(baseline)
        }

        func sample() { if let value = measure() { highest.max(value, ordering: .relaxed) } }
        var growth: Int64 { highest.load(ordering: .relaxed) - baseline }
    }

    /// Bytes the C allocator has handed out and not taken back (see `courier_allocated_bytes`); `nil` where
    /// that is not known.
    static func allocatedBytes() -> Int64? {
        let bytes = courier_allocated_bytes()
        return bytes < 0 ? nil : Int64(bytes)
    }

    /// Resident memory of this process now, in bytes (Linux `/proc`); `nil` elsewhere.
    static func residentMemory() -> Int64? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line.flatMap { Int64($0.split(separator: " ").dropFirst().first ?? "") }.map { $0 * 1024 }
    }
}
