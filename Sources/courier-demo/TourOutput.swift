import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Prints the tour: section titles, one aligned line per step (what was called, what came back, how
/// long it took), a progress bar on a terminal (plain lines otherwise), and the summary.
final class TourOutput: Sendable {
    private struct State {
        var failures: [String] = []
        var steps = 0
        var shownQuarter = 0
    }

    private let state = Mutex(State())
    private let started = ContinuousClock.now
    /// Whether standard output is a terminal (then progress redraws one line).
    let isTerminal = isatty(STDOUT_FILENO) == 1

    /// The names of the steps that failed.
    var failures: [String] { state.withLock { $0.failures } }

    func title(_ text: String) { print(text) }

    func section(_ name: String) { print("\n\(name)") }

    /// Runs one step and prints its line; a thrown error marks it failed.
    func step(_ name: String, _ body: () async throws -> String) async {
        state.withLock { $0.steps += 1 }
        let begin = ContinuousClock.now
        do {
            let result = try await body()
            line(ok: true, name: name, elapsed: ContinuousClock.now - begin, result: result)
        } catch {
            line(ok: false, name: name, elapsed: ContinuousClock.now - begin, result: "\(error)")
            state.withLock { $0.failures.append(name) }
        }
    }

    /// Shows download progress: a redrawn bar on a terminal, a line per quarter otherwise.
    func progress(_ fraction: Double) {
        if isTerminal {
            let width = 30
            let filled = min(width, Int(fraction * Double(width)))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            let text = "\r    [\(bar)] \(Int(fraction * 100))%" + (fraction >= 1 ? "\n" : "")
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let quarter = Int(fraction * 4)
        let show = state.withLock { state in
            guard quarter > state.shownQuarter else { return false }
            state.shownQuarter = quarter
            return true
        }
        if show { print("    downloaded \(quarter * 25)%") }
    }

    func summary() {
        let (failures, steps) = state.withLock { ($0.failures, $0.steps) }
        let total = String(format: "%.0f", Self.milliseconds(ContinuousClock.now - started))
        if failures.isEmpty {
            print("\nAll \(steps) steps succeeded in \(total) ms.")
        } else {
            print("\n\(failures.count) of \(steps) steps failed: \(failures.joined(separator: "; "))")
        }
    }

    private func line(ok: Bool, name: String, elapsed: Duration, result: String) {
        let padded = name.padding(toLength: 40, withPad: " ", startingAt: 0)
        let time = String(format: "%7.1f ms", Self.milliseconds(elapsed))
        print("  \(ok ? "✓" : "✗") \(padded) \(time)  \(result)")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
