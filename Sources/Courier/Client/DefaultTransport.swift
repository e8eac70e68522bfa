public import OpenAPIRuntime
import OpenAPIURLSession

/// The transport a client uses when you don't pass one.
public enum DefaultTransport {
    /// `URLSessionTransport` with the shared session.
    public static func make() -> any ClientTransport { URLSessionTransport() }
}
