import ArgumentParser

/// Who streams the download to disk.
enum DownloadClient: String, CaseIterable, ExpressibleByArgument, TransferClient {
    /// `APIClient.download` over swift-openapi-async-http-client's `AsyncHTTPClientTransport`.
    case courierAHC = "courier-ahc"
    /// `APIClient.download` over ``HTTPClientTransport`` (Courier's).
    case courierThinAHC = "courier-thin-ahc"
    /// `HTTPClient.execute`, writing each `ByteBuffer` to a `FileHandle`.
    case rawAHC = "raw-ahc"

    var title: String {
        switch self {
        case .courierAHC: "Courier + AsyncHTTPClientTransport"
        case .courierThinAHC: "Courier + HTTPClientTransport"
        case .rawAHC: "raw AsyncHTTPClient"
        }
    }
}
