import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

extension Tour {
    struct Attempts: Decodable, Sendable { let attempts: Int }

    func resilience() async {
        output.section("Retries and downloads")
        let client = APIClient(
            baseURL: baseURL, middlewares: middlewares + [.retry(.exponentialBackoff(maxAttempts: 3))])
        await output.step("GET a flaky route (503 + Retry-After: 1)") {
            let key = "tour-\(UUID().uuidString.prefix(8))"
            let response = try await client.send(
                APIRequest<Attempts>.get("/testing/flaky/\(key)", query: ["failures": 1, "retryAfter": 1]))
            return "succeeded on attempt \(response.attempts), after waiting as the server asked"
        }
        let size = 64 * 1024 * 1024
        let destination = FileManager.default.temporaryDirectory.appending(
            path: "courier-tour-\(UUID().uuidString).bin")
        await output.step("download 64 MiB to a file") {
            defer { try? FileManager.default.removeItem(at: destination) }
            let response = try await client.download(
                APIRequest<Void>.get("/testing/download/\(size)"), to: destination
            ) { progress in
                if let fraction = progress.fractionCompleted { output.progress(fraction) }
            }
            let bytes = try FileManager.default.attributesOfItem(atPath: destination.path(percentEncoded: false))[.size]
            return "\(response.status.code), \(bytes ?? 0) bytes written to a temporary file"
        }
    }
}
