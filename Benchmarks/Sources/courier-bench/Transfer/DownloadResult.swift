/// One streamed download to a file, measured in a fresh process.
struct DownloadResult: TransferResult {
    var client: DownloadClient
    var bytes: Int64
    var seconds: Double
    var peakResidentBytes: Int
    var residentBeforeBytes: Int
}
