/// One streamed download to a file, measured in a fresh process.
struct DownloadResult: Codable {
    var client: DownloadClient
    var bytes: Int64
    var seconds: Double
    /// `VmHWM` after the download: the most resident memory the process ever had.
    var peakResidentBytes: Int
    /// `VmHWM` just before the download started (runtime, clients, event loops).
    var residentBeforeBytes: Int

    var mebibytesPerSecond: Double { Double(bytes) / 1_048_576 / max(seconds, 1e-9) }
}
