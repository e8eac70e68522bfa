public import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// Streams the success body of `route` into the file at `destination`, with bounded memory (on a
    /// streaming transport such as AsyncHTTPClient), and returns the response with `destination` as value.
    ///
    /// Bytes go to a temporary file in the destination's folder, which replaces `destination` only when
    /// the whole body has arrived; a failed or cancelled download leaves no partial file behind. The body
    /// limit (``Configuration/maximumBodySize``) does not apply: a download may be any size.
    /// ```swift
    /// let file = try await client.download(APIRequest<Void>.get("/exports/2026.csv"), to: url) { progress in
    ///     print(progress.completedBytes, progress.totalBytes ?? -1)
    /// }
    /// ```
    public func download<R: Route>(
        _ route: R, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> APIResponse<URL> {
        let (request, body) = try makeRequest(for: route)
        if Task.isCancelled { throw failureContext(for: request).error(.cancelled, phase: .building) }
        guard let timeout = route.timeout ?? configuration.timeout else {
            return try await transfer(route, request: request, body: body, to: destination, progress: progress)
        }
        return try await withTimeLimit(timeout, request: request) { () async throws(APIError) in
            try await transfer(route, request: request, body: body, to: destination, progress: progress)
        }
    }

    private func transfer(
        _ route: some Route, request: HTTPRequest, body: HTTPBody?, to destination: URL,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> APIResponse<URL> {
        let (response, responseBody) = try await acceptedHead(for: route, request: request, body: body)
        let failure = failureContext(for: request)
        let file: DownloadFile
        do {
            file = try DownloadFile(destination: destination)
        } catch {
            throw failure.error(.fileAccess, phase: .receiving, underlying: error, response: response)
        }
        var total: Int64?
        if case .known(let length) = responseBody?.length { total = length }
        var completed: Int64 = 0
        do {
            if let responseBody {
                for try await chunk in responseBody {
                    do { try file.write(chunk) } catch { throw FileFailure(underlying: error) }
                    completed += Int64(chunk.count)
                    progress?(TransferProgress(completedBytes: completed, totalBytes: total))
                }
            }
            if Task.isCancelled { throw CancellationError() }
            if let total, completed < total {
                throw TruncatedBody(expected: total, received: completed)
            }
            do { try file.finish() } catch { throw FileFailure(underlying: error) }
        } catch let error as FileFailure {
            file.discard()
            throw failure.error(.fileAccess, phase: .receiving, underlying: error.underlying, response: response)
        } catch {
            file.discard()
            throw failure.receiving(error, response: response)
        }
        return APIResponse(
            value: destination, response: response, request: request, body: Data(), baseURL: resolvedBaseURL)
    }
}

/// The connection ended before the declared length arrived.
struct TruncatedBody: Error, CustomStringConvertible {
    let expected: Int64
    let received: Int64
    var description: String { "the body ended after \(received) of \(expected) bytes" }
}

/// Writing the download's file failed (as opposed to reading the body).
private struct FileFailure: Error {
    let underlying: any Error
}
