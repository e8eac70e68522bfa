import ArgumentParser
import AsyncHTTPClient
import Foundation

/// A client of the download or upload benchmark, as the report names it.
protocol TransferClient: Hashable, Codable {
    /// How the report names it.
    var title: String { get }
}

/// One download or upload, measured in a fresh process.
protocol TransferResult: Codable {
    associatedtype Client: TransferClient
    var client: Client { get }
    /// The bytes transferred (an upload's file; a multipart form adds a few hundred bytes of framing).
    var bytes: Int64 { get }
    var seconds: Double { get }
    /// `VmHWM` after the transfer: the most resident memory the process ever had.
    var peakResidentBytes: Int { get }
    /// `VmHWM` just before the transfer started (runtime, clients, event loops).
    var residentBeforeBytes: Int { get }
}

extension TransferResult {
    /// Throughput in MiB per second.
    var mebibytesPerSecond: Double { Double(bytes) / 1_048_576 / max(seconds, 1e-9) }
}

/// What one transfer cost its process: wall time, resident memory and CPU.
struct TransferMeasurement {
    var seconds: Double
    var peakResidentBytes: Int
    var residentBeforeBytes: Int
    var userCPUSeconds: Double
    var systemCPUSeconds: Double

    /// Runs `transfer` against `baseURL` (which must be on 127.0.0.1) with a fresh `HTTPClient` on the
    /// singleton event loops, shut down afterwards whether it succeeded or not, and measures it.
    static func run(baseURL: String, _ transfer: (URL, HTTPClient) async throws -> Void) async throws
        -> TransferMeasurement
    {
        guard let url = URL(string: baseURL), url.host == "127.0.0.1" else {
            throw ValidationError("--base-url must be an http://127.0.0.1:PORT URL")
        }
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let residentBefore = PeakMemory.residentBytes() ?? 0
        let cpuBefore = ProcessCPU.totals()
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try await transfer(url, httpClient)
        } catch {
            try? await httpClient.shutdown()
            throw error
        }
        let (seconds, attoseconds) = (clock.now - start).components
        let cpuAfter = ProcessCPU.totals()
        let peak = PeakMemory.residentBytes() ?? 0
        try await httpClient.shutdown()
        return TransferMeasurement(
            seconds: Double(seconds) + Double(attoseconds) / 1e18, peakResidentBytes: peak,
            residentBeforeBytes: residentBefore,
            userCPUSeconds: (cpuAfter?.userSeconds ?? 0) - (cpuBefore?.userSeconds ?? 0),
            systemCPUSeconds: (cpuAfter?.systemSeconds ?? 0) - (cpuBefore?.systemSeconds ?? 0))
    }
}

extension Array where Element: TransferResult {
    /// The results grouped by client, clients in the order they first appear.
    var byClient: [(client: Element.Client, runs: [Element])] {
        var clients: [Element.Client] = []
        for result in self where !clients.contains(result.client) { clients.append(result.client) }
        return clients.map { client in (client, filter { $0.client == client }) }
    }

    /// The report's columns every transfer table shares: runs, the highest peak RSS and RSS before (MiB), and
    /// the median and range of throughput (MiB/s).
    var sharedColumns: [String] {
        let speeds = map(\.mebibytesPerSecond)
        return [
            "\(count)",
            String(format: "%.1f", Double(map(\.peakResidentBytes).max() ?? 0) / 1_048_576),
            String(format: "%.1f", Double(map(\.residentBeforeBytes).max() ?? 0) / 1_048_576),
            String(format: "%.0f", median(speeds)),
            String(format: "%.0f–%.0f", speeds.min() ?? 0, speeds.max() ?? 0),
        ]
    }
}
