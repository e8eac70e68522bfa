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
    /// already written, the same way. It gives up after 3 continuations in a row that get no further than the
    /// best before, and starts over from byte 0 at most once when there is no resume data (progress then goes
    /// back to 0). Only requests that may be sent again continue: an idempotent method or an
    /// `Idempotency-Key`, a body that can be read again, and no content coding asked for. The returned
    /// response is then the last exchange's (`206` for a range).
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
        var resumeIsOurs = false  // the caller's own resume data is theirs to keep or discard
        var best = resume?.bytesReceived ?? 0
        var (fruitless, restarts) = (0, 0)
        while true {
            let (built, body) = try makeRequest(for: route)
            let continuable = Self.mayContinue(built, body: body)
            do {
                return try await downloadOnce(
                    route, request: built, body: body, to: destination, resumingFrom: resume, progress: progress)
            } catch var error {
                if error.resumeData == nil, resumeIsOurs, let resume {
                    // An attempt that failed before writing leaves the earlier partial file: hand it on when the
                    // failure was the network's, else delete it.
                    if error.kind == .transport || error.underlyingError is ReadAheadExceeded, resume.isIntact {
                        error.resumeData = resume
                    } else {
                        resume.discard()
                    }
                }
                guard continuable, error.underlyingError is ReadAheadExceeded else { throw error }
                let next = error.resumeData
                if let next, next.bytesReceived > best {
                    (best, fruitless) = (next.bytesReceived, 0)
                } else {
                    fruitless += 1
                    if next == nil { restarts += 1 }
                }
                guard fruitless < Self.fruitlessContinuations, restarts <= 1 else { throw error }
                (resume, resumeIsOurs) = (next, true)
            }
        }
    }

    /// After how many continuations in a row that get no further than the best before `download` gives up:
    /// the writer fell behind again before writing more, or the server answers every range in full.
    static let fruitlessContinuations = 3

    /// Whether `download` may send `request` again by itself: it is idempotent (as ``RetryPolicy`` judges by
    /// default), its body can be read again, and the bytes written are the bytes on the wire (`identity`), so
    /// that a range continues them.
    private static func mayContinue(_ request: HTTPRequest, body: HTTPBody?) -> Bool {
        guard request.headerFields[.acceptEncoding] == nil || request.headerFields[.acceptEncoding] == "identity"
        else { return false }
        return RetryPolicy().allowsRetry(
            of: request, bodyIsReplayable: body.map { $0.iterationBehavior == .multiple } ?? true)
    }

    /// One exchange of `download`: the whole body, or the rest after `resume` when its partial file is intact.
    private func downloadOnce<R: Route>(
        _ route: R, request: HTTPRequest, body: HTTPBody?, to destination: URL,
        resumingFrom resume: DownloadResumeData?, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> APIResponse<URL> {
        var built = request
        // Bytes on disk are the bytes on the wire, so a resumed range continues them (a range of a compressed
        // body could not be decoded on its own).
        if !built.headerFields.contains(.acceptEncoding) { built.headerFields[.acceptEncoding] = "identity" }
        let resume = resume.flatMap { $0.isIntact ? $0 : nil }
        if let resume {
            built.headerFields[.range] = "bytes=\(resume.bytesReceived)-"
            built.headerFields[.ifRange] = resume.validator
        }
        let consumer = Writing(
            destination: destination, resume: resume, progress: progress,
            resumable: built.headerFields[.acceptEncoding] == "identity")
        return try await exchange(route, request: built, body: body, trackedAs: route, consumer: consumer)
    }
}

/// Phase 6 for `download`: streams the accepted body into a temporary file that replaces the destination
/// once complete.
private struct Writing: ResponseConsumer {
    static var isShareable: Bool { false }
    let destination: URL
    let resume: DownloadResumeData?
    let progress: (@Sendable (TransferProgress) -> Void)?
    /// Whether the bytes written are the bytes on the wire, so that a range can continue them.
    let resumable: Bool

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
        var offset: Int64 = 0
        var total: Int64?
        if case .known(let length) = responseBody?.length { total = length }
        if response.status == .partialContent {
            // The range must continue the partial file exactly, or the file would be wrong without an error.
            guard let range = ContentRange(response.headerFields[.contentRange]), range.first == file.existingBytes
            else {
                file.discard()
                let message =
                    "the 206 response's Content-Range (\(response.headerFields[.contentRange] ?? "none")) does not "
                    + "start at byte \(file.existingBytes), where the partial file ends"
                throw failure.error(.transport, phase: .receiving, message: message, response: response)
            }
            offset = range.first
            total = range.completeLength ?? total.map { $0 + offset }
        }
        var completed = offset
        func wrote(_ count: Int) {
            completed += Int64(count)
            progress?(TransferProgress(completedBytes: completed, totalBytes: total))
        }
        do {
            // The transport's own buffers as they are, when it kept them: one copy fewer than through `HTTPBody`.
            try await responseBody?.read { bytes in
                do { try file.write(bytes) } catch { throw FileFailure(underlying: error) }
                wrote(bytes.count)
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
            if !Task.isCancelled && resumable {
                apiError.resumeData = Self.resumeData(for: file, response: response, received: completed, total: total)
            }
            if apiError.resumeData == nil { file.discard() } else { file.keep() }
            throw apiError
        }
        return APIResponse(
            value: destination, response: response, request: delivery.request, body: Data(),
            baseURL: client.baseURL(for: delivery.request), redirects: delivery.trail.redirects,
            cacheStatus: delivery.source.status, httpProtocol: delivery.source.httpProtocol)
    }

    /// The bytes this exchange wrote (a resumed download's file also holds what an earlier one did), for
    /// metrics: read from the file, as `Writing` keeps no count of its own for the unobserved path to pay for.
    func bodySize(of value: APIResponse<URL>) -> Int? {
        let path = value.value.path(percentEncoded: false)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        // A range's first byte is where this exchange began writing (the partial file's end, checked above).
        let earlier =
            value.status == .partialContent
            ? Int(ContentRange(value.response.headerFields[.contentRange])?.first ?? 0) : 0
        return max(size - earlier, 0)
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

/// A `Content-Range` field of a `206`: `bytes FIRST-LAST/LENGTH`, the length `*` when unknown.
struct ContentRange: Equatable {
    let first: Int64
    let last: Int64
    let completeLength: Int64?

    init(first: Int64, last: Int64, completeLength: Int64?) {
        (self.first, self.last, self.completeLength) = (first, last, completeLength)
    }

    init?(_ value: String?) {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst("bytes ".count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.number(bounds[0]), let last = Self.number(bounds[1]), first <= last
        else { return nil }
        var length: Int64?
        if parts[1] != "*" {
            guard let complete = Self.number(parts[1]), last < complete else { return nil }
            length = complete
        }
        self.init(first: first, last: last, completeLength: length)
    }

    /// Digits only (no sign, no spaces), as the field's grammar says.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
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
