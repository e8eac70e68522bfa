import ArgumentParser

/// Who streams the file to the server.
enum UploadClient: String, CaseIterable, Codable, ExpressibleByArgument {
    /// A multipart form with `MultipartFormData.appendFile`, sent by `APIClient` over
    /// swift-openapi-async-http-client's `AsyncHTTPClientTransport`.
    case courierAHC = "courier-ahc"
    /// The same form sent by `APIClient` over ``HTTPClientTransport`` (Courier's).
    case courierThinAHC = "courier-thin-ahc"
    /// `HTTPClient.execute` with the file read in 64 KiB `ByteBuffer`s as a `.stream` body.
    case rawAHC = "raw-ahc"

    /// How the report names it.
    var title: String {
        switch self {
        case .courierAHC: "Courier + AsyncHTTPClientTransport"
        case .courierThinAHC: "Courier + HTTPClientTransport"
        case .rawAHC: "raw AsyncHTTPClient"
        }
    }
}
