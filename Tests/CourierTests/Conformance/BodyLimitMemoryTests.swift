import Courier
import Foundation
import Testing

/// Bodies that would take unbounded memory end at the body limit, and a large download streams to disk,
/// within fixed bounds of resident memory on every transport. Measured by ``MemoryProbe`` in a test run of
/// their own (`scripts/test` runs every `…MemoryTests` suite alone after the main run).
///
/// Each case runs twice and the second run is bounded (``MemoryProbe/peakGrowthOfTwoRuns(_:)``): the first
/// pays for what starts lazily (the transport's threads and pools, the server's cached bomb, code touched for
/// the first time). The demo server runs in a process of its own, so the figures are the client's alone.
@Suite(
    .serialized, .timeLimit(.minutes(5)), .enabled(if: MemoryProbe.runAlone, "run by scripts/test on their own"),
    .enabled(if: MemoryProbe.canMeasure, "resident memory can't be read here"))
struct BodyLimitMemoryTests {
    /// A response that must end at the 10 MiB body limit.
    enum OversizedBody: String, CaseIterable, CustomTestStringConvertible {
        /// 1 GiB of zeros as one gzip stream (~1 MiB on the wire).
        case gzipBomb
        /// A chunked body that never ends.
        case endless
        /// 200 MiB with a declared `Content-Length`.
        case declared200MiB

        var path: RoutePath {
            switch self {
            case .gzipBomb: "/testing/gzip-bomb"
            case .endless: "/testing/endless"
            case .declared200MiB: "/testing/download/\(200 * 1024 * 1024)"
            }
        }

        var query: Query { self == .gzipBomb ? ["mib": 1024] : [:] }
        var testDescription: String { rawValue }
    }

    @Test(arguments: TransportUnderTest.all, OversizedBody.allCases)
    func anOversizedBodyEndsAtTheLimitWithBoundedMemory(transport: TransportUnderTest, body: OversizedBody)
        async throws
    {
        try await TestServers.withDemoServerProcess { base in
            let client = APIClient(baseURL: base, transport: transport.make()) { $0.maxBodySize = 10 * 1024 * 1024 }
            try await expectBounded(body, over: transport, with: client)
        }
    }

    func expectBounded(_ body: OversizedBody, over transport: TransportUnderTest, with client: APIClient) async throws {
        let runs = await MemoryProbe.peakGrowthOfTwoRuns { _ in
            let error = await #expect(throws: APIError.self) {
                try await client.send(APIRequest<Data>.get(body.path, query: body.query))
            }
            #expect(error?.kind == .bodyTooLarge, "\(error?.description ?? "no error")")
        }
        print("\(body) over \(transport), 10 MiB limit: \(runs)")
        #expect(runs.second.resident < 32 * MemoryProbe.mebibyte, "resident memory grew \(runs.second) for \(body)")
    }

    @Test(arguments: TransportUnderTest.all)
    func aGibibyteDownloadStreamsToDiskWithBoundedMemory(transport: TransportUnderTest) async throws {
        let size = 1024 * 1024 * 1024
        let folder = FileManager.default.temporaryDirectory.appending(path: "courier-1GiB-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestServers.withDemoServerProcess { base in
            try await expectBoundedDownload(
                size, to: folder, over: transport, with: APIClient(baseURL: base, transport: transport.make()))
        }
    }

    func expectBoundedDownload(_ size: Int, to folder: URL, over transport: TransportUnderTest, with client: APIClient)
        async throws
    {
        let runs = try await MemoryProbe.peakGrowthOfTwoRuns { run in
            let destination = folder.appending(path: "\(run).bin")
            let response = try await client.download(APIRequest<Void>.get("/testing/download/\(size)"), to: destination)
            #expect(response.value == destination)
            let written = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
            #expect(written == size)
            try FileManager.default.removeItem(at: destination)
        }
        print("1 GiB download over \(transport): \(runs)")
        #expect(
            runs.second.resident < 64 * MemoryProbe.mebibyte, "resident memory grew \(runs.second) downloading 1 GiB")
    }
}
