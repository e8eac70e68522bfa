public import Foundation

/// What an interrupted download needs to continue where it stopped: the partial file (kept beside the
/// destination, never at it), how many bytes it holds, and the validator (`ETag` or `Last-Modified`) that
/// makes the server send the rest only if the resource is unchanged (`If-Range`).
///
/// ```swift
/// do {
///     _ = try await client.download(file, to: destination)
/// } catch {  // an APIError
///     guard let resume = error.resumeData else { throw error }
///     _ = try await client.download(file, to: destination, resumingFrom: resume)
/// }
/// ```
public struct DownloadResumeData: Sendable, Hashable, Codable {
    /// The partial file.
    public let partialFile: URL
    /// How many bytes it holds.
    public let bytesReceived: Int64
    /// The `ETag` (preferred) or `Last-Modified` of the resource being downloaded.
    public let validator: String
    /// The full size, when the server declared it.
    public let totalBytes: Int64?

    /// Resume data, for example read back from storage (it is `Codable`).
    public init(partialFile: URL, bytesReceived: Int64, validator: String, totalBytes: Int64?) {
        self.partialFile = partialFile
        self.bytesReceived = bytesReceived
        self.validator = validator
        self.totalBytes = totalBytes
    }

    /// Whether the partial file is there and holds exactly ``bytesReceived`` bytes.
    var isIntact: Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: partialFile.path(percentEncoded: false))
        return (attributes?[.size] as? NSNumber)?.int64Value == bytesReceived
    }

    /// Deletes the partial file, when you give up on the download.
    public func discard() { try? FileManager.default.removeItem(at: partialFile) }
}
