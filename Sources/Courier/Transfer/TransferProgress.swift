/// How far a transfer has come.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public let completedBytes: Int64
    /// The total, when the server declared it (`Content-Length`).
    public let totalBytes: Int64?

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` between 0 and 1, or `nil` when the total is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
