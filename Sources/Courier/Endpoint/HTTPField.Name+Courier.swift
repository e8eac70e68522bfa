public import HTTPTypes

extension HTTPField.Name {
    /// `Link` (RFC 8288), which ``WebLink`` parses and ``NextPage/followingLink(in:)`` follows.
    public static let link = known("Link")
    /// `Idempotency-Key`: a request with another method than the idempotent ones is retried when it has one.
    public static let idempotencyKey = known("Idempotency-Key")
    /// `X-API-Key`, redacted by default.
    public static let xAPIKey = known("X-API-Key")
    /// `Last-Event-ID`: where a reconnecting event stream left off (``APIClient/events(_:reconnecting:idleTimeout:)``).
    public static let lastEventID = known("Last-Event-ID")
    /// `Pragma`: HTTP/1.0's `no-cache`, which ``HTTPCache`` honours in a request without `Cache-Control`.
    public static let pragma = known("Pragma")
    /// `X-Auth-Token`, redacted by default.
    public static let xAuthToken = known("X-Auth-Token")
    /// `X-CSRFToken`, Django's double-submit CSRF header (``CSRFTokenMiddleware``), redacted by default.
    public static let xCSRFToken = known("X-CSRFToken")
    /// `X-XSRF-TOKEN`, Angular's and Laravel's double-submit CSRF header, redacted by default.
    public static let xXSRFToken = known("X-XSRF-TOKEN")
    /// `X-XSRFToken`, Tornado's and Jupyter Server's double-submit CSRF header, redacted by default.
    public static let xXSRFTokenTornado = known("X-XSRFToken")
    /// `X-CSRF-Token`, Rails' CSRF header, redacted by default.
    public static let xCSRFTokenRails = known("X-CSRF-Token")

    /// A field name written as a literal token in Courier's source. `HTTPField.Name` has no non-failing
    /// initialiser, and falling back to another name would change behaviour silently; every name built this
    /// way is checked by `FieldNameConstantTests`, so the unwrap never meets input.
    static func known(_ token: StaticString) -> HTTPField.Name {
        // swift-format-ignore: NeverForceUnwrap
        HTTPField.Name("\(token)")!
    }
}
