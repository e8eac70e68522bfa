/// The secrets the demo server accepts, for the demo executable and the tests.
///
/// ```swift
/// let shortener = URLShortener(baseURL: server.baseURL, apiKey: DemoCredentials.shortenerAPIKey)
/// ```
public enum DemoCredentials {
    /// The API key of the Google-style URL shortener (`?key=` or `X-Goog-Api-Key`).
    public static let shortenerAPIKey = "demo-shortener-key"
    /// The API key of the Flickr-style photo API (`?api_key=`).
    public static let flickrAPIKey = "demo-flickr-key"
    /// The personal access token of the GitHub-style API (`Authorization: Bearer …` or `token …`).
    public static let githubToken = "ghp_demoToken123"
    /// The user name the envelope API's `POST /envelope/login` accepts.
    public static let envelopeUser = "demo"
    /// The password the envelope API's `POST /envelope/login` accepts.
    public static let envelopePassword = "demo-password"
    /// The email the form login's `POST /auth/local` accepts.
    public static let loginEmail = "ada@example.com"
    /// The password the form login's `POST /auth/local` accepts.
    public static let loginPassword = "correct horse battery staple"
}
