public import Foundation

/// The browser step of the authorization code grant: shows the provider's sign-in page and returns the URL the
/// server redirected the browser to.
///
/// Courier ships ``OAuth2LoopbackUserAgent`` for command-line and server tools (Linux and macOS). An app
/// conforms its own type, with a redirect URI of its own scheme, over `ASWebAuthenticationSession` on an
/// Apple platform or whatever browser step it has:
/// ```swift
/// struct AppSignIn: OAuth2UserAgent {
///     let redirectURI: URL  // com.example.app:/oauth/callback, registered with the provider
///     let present: @Sendable (URL) async throws -> URL  // shows the page, returns the callback
///     func authorize(_ makeURL: (URL) throws -> URL) async throws -> URL {
///         try await present(try makeURL(redirectURI))
///     }
/// }
/// ```
public protocol OAuth2UserAgent: Sendable {
    /// Decides the redirect URI, passes it to `makeURL` for the sign-in page's URL, shows that page, and
    /// returns the URL the browser was sent back to (with its `code` or `error`). Throws when the user
    /// cancels or the step times out.
    func authorize(_ makeURL: (_ redirectURI: URL) throws -> URL) async throws -> URL
}

/// What the browser is shown after the redirect reached an ``OAuth2LoopbackUserAgent``.
public struct OAuth2LoopbackPage: Sendable {
    /// The page after a callback that carries a code: sign-in is complete in the app.
    public var signedIn: String
    /// The page after a callback that carries an error.
    public var failed: String

    /// Pages with your own HTML.
    public init(signedIn: String, failed: String) {
        self.signedIn = signedIn
        self.failed = failed
    }

    /// Short plain pages telling the user to go back to the app.
    public static let standard = OAuth2LoopbackPage(
        signedIn:
            "<!doctype html><title>Signed in</title><p>Signed in. You can close this window and return to the app.",
        failed:
            "<!doctype html><title>Sign-in failed</title><p>Sign-in did not complete. Return to the app for details."
    )
}
