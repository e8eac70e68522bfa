import ArgumentParser

/// Who streams the file to the server.
enum UploadClient: String, CaseIterable, ExpressibleByArgument, TransferClient {
    /// The file as the whole body (`RequestBody.file`), sent by `APIClient` over swift-openapi-async-http-client's
    /// `AsyncHTTPClientTransport`.
    case courierAHC = "courier-ahc"
    /// The same, over ``HTTPClientTransport`` (Courier's): like for like with ``rawAHC``.
    case courierThinAHC = "courier-thin-ahc"
    /// A multipart form with the file as its one part (`MultipartFormData.appendFile`), over
    /// ``HTTPClientTransport``: 247 bytes of framing more.
    case courierThinAHCMultipart = "courier-thin-ahc-multipart"
    /// `HTTPClient.execute` with the file read in 64 KiB `ByteBuffer`s as a `.stream` body.
    case rawAHC = "raw-ahc"

    var title: String {
        switch self {
        case .courierAHC: "Courier + AsyncHTTPClientTransport"
        case .courierThinAHC: "Courier + HTTPClientTransport"
        case .courierThinAHCMultipart: "Courier + HTTPClientTransport, multipart"
        case .rawAHC: "raw AsyncHTTPClient"
        }
    }
}
