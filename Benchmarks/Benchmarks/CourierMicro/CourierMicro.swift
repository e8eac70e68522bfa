import Benchmark
import BenchmarkSupport
import CoreMetrics
import Courier
import Foundation
import InMemoryTracing
import MetricsTestKit
import Tracing

/// Courier's own per-request path (build, empty middleware chain, validation, collect, decode) through
/// ``CannedTransport``, which answers at once, against the same body decoded by `JSONDecoder` alone.
/// One sample is one request; `courier-bench report` reads these results by name.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds,
        warmupIterations: 2_000,
        maxDuration: .seconds(3),
        maxIterations: 200_000
    )
    let body = (try? Fixtures.userJSON()) ?? Data()
    guard let baseURL = URL(string: "http://127.0.0.1:8080") else { fatalError("the constant URL is valid") }
    let client = APIClient(baseURL: baseURL, transport: CannedTransport(body: body))
    let unobserved = APIClient(baseURL: baseURL, transport: CannedTransport(body: body)) {
        $0.reportsMetricsAndTraces = false
    }
    let decoder = JSONDecoder()
    let encoder = JSONEncoder()

    Benchmark(MicroBenchmarkNames.decode) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode(User.self, from: body))
        }
    }

    Benchmark(MicroBenchmarkNames.sendUpdate) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(UpdateUser(login: "octocat")))
        }
    }

    Benchmark(MicroBenchmarkNames.sendGet) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(GetUser(login: "octocat")))
        }
    }

    Benchmark(MicroBenchmarkNames.sendGetUnobserved) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        for _ in benchmark.scaledIterations {
            blackHole(try await unobserved.send(GetUser(login: "octocat")))
        }
    }

    Benchmark(MicroBenchmarkNames.sendGetObserved) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        try await withMetricsFactory(metrics) {
            try await withTracer(tracer) {
                for iteration in benchmark.scaledIterations {
                    blackHole(try await client.send(GetUser(login: "octocat")))
                    // The in-memory backends keep everything; emptied now and then, as an exporter would.
                    if iteration % 1_024 == 0 {
                        tracer.clearFinishedSpans()
                        metrics.reset()
                    }
                }
            }
        }
    }

    Benchmark(MicroBenchmarkNames.sendGetLean) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        try await withMetricsFactory(LeanMetrics()) {
            try await withTracer(LeanTracer()) {
                for _ in benchmark.scaledIterations {
                    blackHole(try await client.send(GetUser(login: "octocat")))
                }
            }
        }
    }

    Benchmark(MicroBenchmarkNames.sendGetNamed) { benchmark in
        guard !body.isEmpty else { throw FixtureMissing() }
        for _ in benchmark.scaledIterations {
            blackHole(try await client.send(GetUserNamed(login: "octocat")))
        }
    }

    Benchmark(MicroBenchmarkNames.encodeBody) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(ProfileChange.sample))
        }
    }
}

/// `fixtures/user.json` could not be read.
struct FixtureMissing: Error {}
