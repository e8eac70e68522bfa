public import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// Streams the success body of `route` into the file at `destination`, with bounded memory (on a
    /// streaming transport such as AsyncHTTPClient), and returns the response with `destination` as value.
    ///
    /// Bytes go to a temporary file in the destination's folder, which replaces `destination` only when
    /// the whole body has arrived; the destination never holds a partial file. When an interrupted
    /// response carried a validator (`ETag` or `Last-Modified`) and accepts byte ranges, the partial file is
    /// kept and the error's ``APIError/resumeData`` continues it with `Range` and `If-Range`; otherwise it
    /// is deleted. The body limit (``Configuration/maxBodySize``) does not apply to downloads.
    ///
    /// A transfer that ``StreamingURLSessionTransport`` stopped because the writer fell too far behind
    /// (``ReadAheadExceeded``: URLSession on Linux can't pause a transfer) continues by itself from the bytes
    /// already written, the same way, while attempts make progress (a transfer with no resume data starts
    /// over, at most 3 times in a row); the returned response is then the last exchange's (`206` for a range).
    /// ```swift
    /// let file = try await client.download(APIRequest<Void>.get("/exports/2026.csv"), to: url) { progress in
    ///     print(progress.completedBytes, progress.totalBytes ?? -1)
    /// }
    /// ```
    public func download<R: Route>(
        _ route: R, to destination: URL, resumingFrom resume: DownloadResumeData? = nil,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws(APIError) -> APIResponse<URL> {
        var resume = resume
        var fruitless = 0
        while true {
            do {
                return try await downloadOnce(route, to: destination, resumingFrom: resume, progress: progress)
            } catch {
                guard error.underlyingError is ReadAheadExceeded else { throw error }
                let next = error.resumeData
                if let next, next.bytesReceived > resume?.bytesReceived ?? 0 { fruitless = 0 } else { fruitless += 1 }
                guard fruitless <= Self.fruitlessContinuations else { throw error }
                resume = next
            }
        }
    }

    /// How many times in a row `download` starts again after ``ReadAheadExceeded`` without having written
    /// another byte: the writer fell behind before its first byte, or the server offers no ranges, so the
    /// transfer starts over.
    static let fruitlessContinuations = 3

    /// One exchange of `download`: the whole body, or the rest after `resume`.
    private func downloadOnce<R: Route>(
        _ route: R, to destination: URL, resumingFrom resume: DownloadResumeData?,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> APIResponse<URL> {
        var (built, body) = try makeRequest(for: route)
        // Bytes on disk are the bytes on the wire, so a resumed range continues them (a range of a compressed
        // body could not be decoded on its own).
        if !built.headerFields.contains(.acceptEncoding) { built.headerFields[.acceptEncoding] = "identity" }
        if let resume {
            built.headerFields[.range] = "bytes=\(resume.bytesReceived)-"
            built.headerFields[.ifRange] = resume.validator
        }
        let consumer = Writing(destination: destination, resume: resume, progress: progress)
        return try await exchange(route, request: built, body: body, trackedAs: route, consumer: consumer)
    }
}

/// Phase 6 for `download`: streams the accepted body into a temporary file that replaces the destination
/// once complete.
private struct Writing: ResponseConsumer {
    let destination: URL
    let resume: DownloadResumeData?
    let progress: (@Sendable (TransferProgress) -> Void)?

    func consume(_ delivery: Delivery, client: APIClient) async throws(APIError) -> APIResponse<URL> {
        let (response, responseBody) = (delivery.response, delivery.body)
        let failure = client.failureContext(for: delivery)
        let file: DownloadFile
        do {
            file = try DownloadFile(destination: destination, resuming: resume)
            if response.status != .partialContent && file.existingBytes > 0 { try file.restart() }
        } catch {
            throw failure.error(.fileAccess, phase: .receiving, underlying: error, response: response)
        }
        let offset = response.status == .partialContent ? file.existingBytes : 0
        var declared: Int64?
        if case .known(let length) = responseBody?.length { declared = length }
        let total = declared.map { $0 + offset }
        var completed = offset
        do {
            if let responseBody {
                for try await chunk in responseBody {
                    do { try file.write(chunk) } catch { throw FileFailure(underlying: error) }
                    completed += Int64(chunk.count)
                    progress?(TransferProgress(completedBytes: completed, totalBytes: total))
                }
            }
            if Task.isCancelled { throw CancellationError() }
            if let total, completed < total { throw TruncatedBody(expected: total, received: completed) }
            do { try file.finish() } catch { throw FileFailure(underlying: error) }
        } catch let error as FileFailure {
            file.discard()
            throw failure.error(.fileAccess, phase: .receiving, underlying: error.underlying, response: response)
        } catch {
            var apiError = failure.receiving(error, response: response)
            // A cancelled (or timed-out) download offers no resume data: its error may never reach the
            // caller (a time limit replaces it), and the partial file would be orphaned.
            if !Task.isCancelled {
                apiError.resumeData = Self.resumeData(for: file, response: response, received: completed, total: total)
            }
            if apiError.resumeData == nil { file.discard() } else { file.keep() }
            throw apiError
        }
        return APIResponse(
            value: destination, response: response, request: delivery.request, body: Data(),
            baseURL: client.baseURL(for: delivery.request), redirects: delivery.trail.redirects)
    }

    /// Resume data when the server named a validator and accepts ranges, and some bytes arrived.
    private static func resumeData(for file: DownloadFile, response: HTTPResponse, received: Int64, total: Int64?)
        -> DownloadResumeData?
    {
        let fields = response.headerFields
        guard received > 0, fields[.acceptRanges]?.lowercased() == "bytes" || response.status == .partialContent,
            let validator = fields[.eTag] ?? fields[.lastModified]
        else { return nil }
        return DownloadResumeData(
            partialFile: file.temporary, bytesReceived: received, validator: validator, totalBytes: total)
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
