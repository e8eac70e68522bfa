import ArgumentParser

/// One way of fetching and decoding the user: a raw HTTP client written by hand, or Courier over a
/// transport built on that client.
enum ClientKind: String, CaseIterable, Codable, ExpressibleByArgument {
    case rawAHC = "raw-ahc"
    case courierAHC = "courier-ahc"
    case courierThinAHC = "courier-thin-ahc"
    case rawURLSession = "raw-urlsession"
    case courierURLSession = "courier-urlsession"

    /// The raw client this kind is compared with (itself for a raw client).
    var baseline: ClientKind {
        switch self {
        case .rawAHC, .courierAHC, .courierThinAHC: .rawAHC
        case .rawURLSession, .courierURLSession: .rawURLSession
        }
    }

    /// How the report names it.
    var title: String {
        switch self {
        case .rawAHC: "raw AsyncHTTPClient"
        case .courierAHC: "Courier + AsyncHTTPClientTransport"
        case .courierThinAHC: "Courier + ThinAHCTransport"
        case .rawURLSession: "raw URLSession"
        case .courierURLSession: "Courier + URLSessionTransport"
        }
    }
}
