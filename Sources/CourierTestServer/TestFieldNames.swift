import CourierDemoServer
import HTTPTypes

/// The fields of the test routes (`literal(_:)` is the demo server's).
extension HTTPField.Name {
    /// The cache-tests suite's request number (`Req-Num`) and the fields its origin adds.
    static let requestNumber = literal("Req-Num")
    static let serverBaseURL = literal("Server-Base-Url")
    static let serverRequestCount = literal("Server-Request-Count")
    static let clientRequestCount = literal("Client-Request-Count")
    static let serverNow = literal("Server-Now")
    static let requestNumbers = literal("Request-Numbers")
    /// `Last-Event-ID`: where a reconnecting event-stream client left off.
    static let lastEventID = literal("Last-Event-ID")
}
