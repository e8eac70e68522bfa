import ArgumentParser
import AsyncHTTPClient
import BenchmarkClients
import Courier
import Foundation
import NIOCore
import NIOHTTP1
import OpenAPIAsyncHTTPClient

/// `courier-bench upload`: streams one large file to the server as a request body and reports throughput,
/// CPU and peak RSS. Run it in a fresh process per client, so that the peak belongs to that upload alone.
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload", abstract: "Streams a large file as a request body; reports throughput and peak RSS.")

    @Option(help: "The server, on 127.0.0.1; the file is PUT to <base-url>/upload, which answers once it has it all.")
    var baseURL: String

    @Option(help: "Who uploads.")
    var client: UploadClient = .courierThinAHC

    @Option(name: .customLong("size-mib"), help: "The file's size in MiB (made sparse before the clock starts).")
    var sizeMiB = 200

    @Option(help: "The round of a series, recorded so that the report pairs each client with raw in it.")
    var round: Int?

    @Option(help: "Append the result as one JSON line to this file.")
    var output: String?

    /// How long each client may take up to the response head, which nginx sends once it has the whole body.
    static let timeout = TimeAmount.minutes(5)

    /// Rejects a size that isn't positive.
    func validate() throws {
        guard sizeMiB > 0 else { throw ValidationError("--size-mib must be positive") }
    }

    /// Makes the file, uploads it with the chosen client, and reports what it cost.
    func run() async throws {
        let bytes = Int64(sizeMiB) * 1_048_576
        let file = try Self.makeSparseFile(bytes: bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let measured = try await TransferMeasurement.run(baseURL: baseURL) { url, httpClient in
            try await upload(file, bytes: bytes, to: url, with: httpClient)
        }
        let result = UploadResult(
            client: client, bytes: bytes, seconds: measured.seconds, peakResidentBytes: measured.peakResidentBytes,
            residentBeforeBytes: measured.residentBeforeBytes, userCPUSeconds: measured.userCPUSeconds,
            systemCPUSeconds: measured.systemCPUSeconds, round: round)
        log(
            String(
                format: "upload %@: %lld bytes in %.2f s (%.0f MiB/s), CPU %.2f s user + %.2f s system, "
                    + "peak RSS %.1f MiB (%.1f MiB before)",
                client.rawValue, bytes, result.seconds, result.mebibytesPerSecond, result.userCPUSeconds,
                result.systemCPUSeconds, Double(result.peakResidentBytes) / 1_048_576,
                Double(result.residentBeforeBytes) / 1_048_576))
        if let output { try ResultLines.append(result, to: output) }
    }

    /// A file of `bytes` zeros in the temporary folder, made sparse: nothing is written, and reading it
    /// costs no disk I/O, so every client reads at page-cache speed.
    private static func makeSparseFile(bytes: Int64) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-upload-\(UUID().uuidString).bin")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(bytes))
        return file
    }

    /// PUTs `file` to `/upload` with the chosen client and waits for the server's answer.
    private func upload(_ file: URL, bytes: Int64, to baseURL: URL, with httpClient: HTTPClient) async throws {
        switch client {
        case .courierAHC:
            let transport = AsyncHTTPClientTransport(configuration: .init(client: httpClient, timeout: Self.timeout))
            try await APIClient(baseURL: baseURL, transport: transport).send(
                APIRequest<Void>.put("/upload", body: .file(file)))
        case .courierThinAHC:
            let transport = HTTPClientTransport(client: httpClient, timeout: Self.timeout)
            try await APIClient(baseURL: baseURL, transport: transport).send(
                APIRequest<Void>.put("/upload", body: .file(file)))
        case .courierThinAHCMultipart:
            let transport = HTTPClientTransport(client: httpClient, timeout: Self.timeout)
            try await APIClient(baseURL: baseURL, transport: transport).send(Self.multipartRequest(for: file))
        case .rawAHC:
            var request = HTTPClientRequest(url: baseURL.absoluteString + "/upload")
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.body = .stream(FileChunks(file: file), length: .known(bytes))
            let response = try await httpClient.execute(request, timeout: Self.timeout)
            for try await _ in response.body {}
            guard (200..<300).contains(response.status.code) else {
                throw UnexpectedStatus(code: Int(response.status.code))
            }
        }
    }

    /// The file as a form posts it: a multipart form whose one part is the file, streamed from disk.
    private static func multipartRequest(for file: URL) throws -> APIRequest<Void> {
        var form = MultipartFormData()
        try form.appendFile(at: file, name: "file")
        return .put("/upload", body: .multipart(form))
    }
}
