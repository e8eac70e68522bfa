/// One way of fetching and decoding the user: a raw HTTP client written by hand, a `ClientTransport`
/// called directly (what any swift-openapi-runtime client pays at least), or Courier over that transport.
public enum ClientKind: String, CaseIterable, Codable, Sendable {
    case rawAHC = "raw-ahc"
    /// Raw AsyncHTTPClient on the `HTTPClient` Courier as shipped uses (`HTTPClientTransport.sharedClient`: the
    /// same pool and settings), so that the two differ only in Courier's own work: the like-for-like baseline.
    case rawAHCCourierClient = "raw-ahc-courier-client"
    /// Raw AsyncHTTPClient as most users write it: on `HTTPClient.shared` (8 connections per host, a tracing
    /// span and a decompressor): a comparison of configurations, not of Courier's own cost.
    case rawAHCShared = "raw-ahc-shared"
    /// Raw AsyncHTTPClient sending the two fields Courier adds to every request (`User-Agent`,
    /// `Accept-Encoding`): a reference for the instruction counts, not part of the load matrix.
    case rawAHCFields = "raw-ahc-fields"
    /// Courier as shipped: `APIClient(baseURL:)` with its default transport and shared client.
    case courierShipped = "courier-shipped"
    /// Courier as shipped, each request's task preferring an event loop's executor (an experiment, #14).
    case courierShippedOnLoop = "courier-shipped-on-loop"
    case transportAHC = "transport-ahc"
    case courierAHC = "courier-ahc"
    case transportThinAHC = "transport-thin-ahc"
    case courierThinAHC = "courier-thin-ahc"
    case rawURLSession = "raw-urlsession"
    case transportURLSession = "transport-urlsession"
    case courierURLSession = "courier-urlsession"
    /// Courier over its own `StreamingURLSessionTransport`.
    case courierStreamingURLSession = "courier-streaming-urlsession"

    /// Every kind but the experiment and the reference: what `courier-bench e2e` runs unless told otherwise.
    public static var standard: [ClientKind] { allCases.filter { $0 != .courierShippedOnLoop && $0 != .rawAHCFields } }

    /// The raw client this kind is compared with (itself for a raw client).
    public var baseline: ClientKind {
        switch self {
        case .rawAHC, .rawAHCFields, .transportAHC, .courierAHC, .transportThinAHC, .courierThinAHC: .rawAHC
        case .rawAHCCourierClient, .courierShipped, .courierShippedOnLoop: .rawAHCCourierClient
        case .rawAHCShared: .rawAHCShared
        case .rawURLSession, .transportURLSession, .courierURLSession, .courierStreamingURLSession: .rawURLSession
        }
    }

    /// How the report names it.
    public var title: String {
        switch self {
        case .rawAHC: "raw AsyncHTTPClient"
        case .rawAHCCourierClient: "raw AsyncHTTPClient on Courier's shared HTTPClient"
        case .rawAHCShared: "raw AsyncHTTPClient on HTTPClient.shared"
        case .rawAHCFields: "raw AsyncHTTPClient sending Courier's User-Agent and Accept-Encoding"
        case .courierShipped: "Courier as shipped (APIClient(baseURL:))"
        case .courierShippedOnLoop: "Courier as shipped, task on an event loop"
        case .transportAHC: "AsyncHTTPClientTransport alone"
        case .courierAHC: "Courier + AsyncHTTPClientTransport"
        case .transportThinAHC: "HTTPClientTransport alone"
        case .courierThinAHC: "Courier + HTTPClientTransport"
        case .rawURLSession: "raw URLSession"
        case .transportURLSession: "URLSessionTransport alone"
        case .courierURLSession: "Courier + URLSessionTransport"
        case .courierStreamingURLSession: "Courier + StreamingURLSessionTransport"
        }
    }
}
