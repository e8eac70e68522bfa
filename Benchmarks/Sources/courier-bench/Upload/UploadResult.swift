/// One file streamed to the server as a request body, measured in a fresh process.
struct UploadResult: Codable {
    var client: UploadClient
    /// The file's size (a multipart form adds a few hundred bytes of framing around it).
    var bytes: Int64
    var seconds: Double
    /// `VmHWM` after the upload: the most resident memory the process ever had.
    var peakResidentBytes: Int
    /// `VmHWM` just before the upload started (runtime, clients, event loops).
    var residentBeforeBytes: Int
    /// User CPU the whole process used during the upload (`getrusage`), in seconds: where Courier's own
    /// work shows.
    var userCPUSeconds: Double
    /// System CPU the whole process used during the upload, in seconds: reading the file and sending on
    /// loopback, most of the CPU, and the part that varies most from run to run.
    var systemCPUSeconds: Double
    /// The round of `run.sh` this upload belongs to, so that the report can pair it with the raw client's.
    var round: Int?

    /// Throughput in MiB per second.
    var mebibytesPerSecond: Double { Double(bytes) / 1_048_576 / max(seconds, 1e-9) }

    /// User CPU seconds per GiB sent.
    var userCPUPerGibibyte: Double { userCPUSeconds / gibibytes }

    /// System CPU seconds per GiB sent.
    var systemCPUPerGibibyte: Double { systemCPUSeconds / gibibytes }

    /// The size in GiB (never zero, to divide by).
    private var gibibytes: Double { max(Double(bytes) / 1_073_741_824, 1e-9) }
}
