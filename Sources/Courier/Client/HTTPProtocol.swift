/// The HTTP version a response came over, as ``APIResponse/httpProtocol`` reports it.
///
/// ```swift
/// let response = try await client.response(GetUser(login: "octocat"))
/// print(response.httpProtocol ?? "unknown")  // "HTTP/2" over TLS where the server offers it
/// ```
public struct HTTPProtocol: Hashable, Sendable, CustomStringConvertible {
    /// The major version: 1, 2 or 3.
    public let major: Int
    /// The minor version: 0 or 1 for HTTP/1, 0 otherwise.
    public let minor: Int

    /// A version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0.
    public static let http1_0 = HTTPProtocol(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPProtocol(major: 1, minor: 1)
    /// HTTP/2.
    public static let http2 = HTTPProtocol(major: 2, minor: 0)
    /// HTTP/3.
    public static let http3 = HTTPProtocol(major: 3, minor: 0)

    /// `HTTP/1.1`, `HTTP/2`, as the version is written.
    public var description: String { major >= 2 && minor == 0 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }
}
