/// An error starting the demo server that is not a socket error (those are thrown as they are).
public struct DemoServerError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, in words.
    public let message: String

    /// A description of the error, for logs.
    public var description: String { "DemoServerError: \(message)" }
}
