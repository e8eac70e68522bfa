import OpenAPIRuntime

/// A body that reports how many of its bytes the transport has taken, chunk by chunk.
struct ProgressReportingBody: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let base: HTTPBody
    let report: @Sendable (TransferProgress) -> Void

    func makeAsyncIterator() -> Iterator {
        var total: Int64?
        if case .known(let length) = base.length { total = length }
        return Iterator(base: base.makeAsyncIterator(), total: total, report: report)
    }

    struct Iterator: AsyncIteratorProtocol {
        var base: HTTPBody.Iterator
        let total: Int64?
        let report: @Sendable (TransferProgress) -> Void
        var sent: Int64 = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let chunk = try await base.next() else { return nil }
            sent += Int64(chunk.count)
            report(TransferProgress(completedBytes: sent, totalBytes: total))
            return chunk
        }
    }
}

extension HTTPBody {
    /// This body, reporting progress as it is read.
    func reportingProgress(_ report: @escaping @Sendable (TransferProgress) -> Void) -> HTTPBody {
        HTTPBody(
            ProgressReportingBody(base: self, report: report), length: length, iterationBehavior: iterationBehavior)
    }
}
