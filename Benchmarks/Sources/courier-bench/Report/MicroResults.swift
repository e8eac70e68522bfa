import BenchmarkSupport
import Foundation

/// The ordo-one micro benchmarks, read from the JMH-format JSON that `--format jmh` writes.
struct MicroResults {
    struct Figures {
        /// Median wall-clock time of one iteration, in microseconds.
        var microseconds: Double
        /// Median `malloc` calls in one iteration.
        var allocations: Double
        var samples: Int
    }

    private(set) var byName: [String: Figures] = [:]

    init(jmhFile path: String) throws {
        let elements = try JSONDecoder().decode([Element].self, from: Data(contentsOf: URL(filePath: path)))
        for element in elements {
            // "package.benchmark.CourierMicro.Decode:_JSONDecoder_alone"
            guard let name = element.benchmark.split(separator: ".", maxSplits: 3).last,
                let time = element.secondaryMetrics["Time (wall clock)"]?.scorePercentiles["50.0"],
                let mallocs = element.secondaryMetrics["Malloc (total)"]?.scorePercentiles["50.0"]
            else { continue }
            byName[String(name)] = Figures(
                microseconds: time, allocations: mallocs, samples: element.measurementIterations)
        }
    }

    /// The figures of the benchmark registered as `name` (JMH writes its spaces as `_`).
    subscript(name: String) -> Figures? {
        byName[name.replacingOccurrences(of: " ", with: "_")]
    }

    private struct Element: Decodable {
        var benchmark: String
        var measurementIterations: Int
        var secondaryMetrics: [String: Metric]
    }

    private struct Metric: Decodable {
        var scorePercentiles: [String: Double]
    }
}
