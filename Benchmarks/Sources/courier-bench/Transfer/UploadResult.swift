/// One file streamed to the server as a request body, measured in a fresh process.
struct UploadResult: TransferResult {
    var client: UploadClient
    var bytes: Int64
    var seconds: Double
    var peakResidentBytes: Int
    var residentBeforeBytes: Int
    /// User CPU the whole process used during the upload (`getrusage`), in seconds: where Courier's own
    /// work shows.
    var userCPUSeconds: Double
    /// System CPU the whole process used during the upload, in seconds: reading the file and sending on
    /// loopback, most of the CPU, and the part that varies most from run to run.
    var systemCPUSeconds: Double
    /// The round of `run.sh` this upload belongs to, so that the report can pair it with the raw client's.
    var round: Int?

    /// User CPU seconds per GiB sent.
    var userCPUPerGibibyte: Double { userCPUSeconds / gibibytes }

    /// System CPU seconds per GiB sent.
    var systemCPUPerGibibyte: Double { systemCPUSeconds / gibibytes }

    /// The size in GiB (never zero, to divide by).
    private var gibibytes: Double { max(Double(bytes) / 1_073_741_824, 1e-9) }
}
