import ArgumentParser
import AsyncHTTPClient
import BenchmarkClients
import Courier
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import OpenAPIAsyncHTTPClient

/// `courier-bench download`: streams one large file to disk and reports peak RSS and throughput. Run it
/// in a fresh process per client, so that the peak belongs to that download alone.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Streams a large file to disk; reports peak RSS and throughput.")

    @Option(help: "The server, on 127.0.0.1; the file is GET <base-url>/big.bin.")
    var baseURL: String

    @Option(help: "Who downloads.")
    var client: DownloadClient = .courierAHC

    @Option(help: "Where the file goes (deleted afterwards).")
    var destination: String

    @Option(help: "Append the result as one JSON line to this file.")
    var output: String?

    func run() async throws {
        let file = URL(filePath: destination)
        let measured = try await TransferMeasurement.run(baseURL: baseURL) { url, httpClient in
            try await download(from: url, to: file, with: httpClient)
        }
        let bytes = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64 ?? 0
        try? FileManager.default.removeItem(at: file)
        let result = DownloadResult(
            client: client, bytes: bytes, seconds: measured.seconds, peakResidentBytes: measured.peakResidentBytes,
            residentBeforeBytes: measured.residentBeforeBytes)
        log(
            String(
                format: "download %@: %d bytes in %.2f s (%.0f MiB/s), peak RSS %.1f MiB (%.1f MiB before)",
                client.rawValue, bytes, result.seconds, result.mebibytesPerSecond,
                Double(result.peakResidentBytes) / 1_048_576, Double(result.residentBeforeBytes) / 1_048_576))
        if let output { try ResultLines.append(result, to: output) }
    }

    private func download(from baseURL: URL, to file: URL, with httpClient: HTTPClient) async throws {
        switch client {
        case .courierAHC:
            let api = APIClient(
                baseURL: baseURL, transport: AsyncHTTPClientTransport(configuration: .init(client: httpClient)))
            _ = try await api.download(APIRequest<Void>.get("/big.bin"), to: file)
        case .courierThinAHC:
            let api = APIClient(baseURL: baseURL, transport: HTTPClientTransport(client: httpClient))
            _ = try await api.download(APIRequest<Void>.get("/big.bin"), to: file)
        case .rawAHC:
            let request = HTTPClientRequest(url: baseURL.absoluteString + "/big.bin")
            let response = try await httpClient.execute(request, timeout: .minutes(5))
            guard response.status == .ok else { throw UnexpectedStatus(code: Int(response.status.code)) }
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            for try await buffer in response.body {
                try handle.write(contentsOf: buffer.readableBytesView)
            }
        }
    }
}
