package import Hummingbird

/// The server's origin as the client addressed it, for absolute URLs in `Link` headers.
package enum RequestOrigin {
    /// `http://` plus the request's `Host` (`http://127.0.0.1:54321`); `http://localhost` without one.
    package static func of(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "localhost")
    }
}
