import Foundation
public import HTTPTypes

/// Every failure of a request: what went wrong (``kind``), where (``phase``), on which request
/// (``method`` and the redacted ``url``), and what came back (``status``, ``responseHeaders``, a bounded
/// ``bodySnippet``, the decoded ``errorBody``).
///
/// ```swift
/// do { _ = try await client.send(GetUser(login: "nobody")) }
/// catch let error where error.kind == .apiError {
///     print(error.errorBody(as: GitHubError.self)?.message ?? "")   // "Not Found"
/// }
/// ```
/// Its `description` is one line and never contains a secret: API keys, tokens and passwords are
/// redacted from the URL, the headers, the body snippet and the underlying error's text.
public struct APIError: Error, Sendable {
    /// What went wrong.
    public var kind: Kind
    /// The stage of the request that failed.
    public var phase: Phase
    /// The request's method, when a request was built.
    public var method: HTTPRequest.Method?
    /// The request's full URL with secret query values replaced by `<redacted>`.
    public var url: String?
    /// The response status, when a response head arrived.
    public var status: HTTPResponse.Status?
    /// The response header fields, secret ones redacted.
    public var responseHeaders: HTTPFields?
    /// The start of the response body as text (at most ``snippetLimit`` characters), secrets redacted.
    public var bodySnippet: String?
    /// The API's own error body, decoded with the client's ``APIClient/Configuration/errorBody`` type.
    public var errorBody: (any Sendable)?
    /// What the failure was, in words, when no underlying error says it better.
    public var message: String?
    /// The error that caused this one, if any (a `DecodingError`, a transport error, …).
    public var underlyingError: (any Error)?
    /// How many times the request was sent, when a retry middleware sent it more than once.
    public var attempts: Int?
    /// For an interrupted download that can continue: pass it to
    /// ``APIClient/download(_:to:resumingFrom:progress:)``.
    public var resumeData: DownloadResumeData?

    /// The most characters of a response body kept in ``bodySnippet``.
    public static let snippetLimit = 512

    /// Creates an error. Courier fills in the request and response context itself.
    public init(
        _ kind: Kind, phase: Phase, message: String? = nil, underlyingError: (any Error)? = nil
    ) {
        self.kind = kind
        self.phase = phase
        self.message = message
        self.underlyingError = underlyingError
    }

    /// The decoded error body as a `T`, if it is one.
    public func errorBody<T>(as type: T.Type) -> T? { errorBody as? T }
}

extension APIError {
    /// What went wrong. New kinds may be added; switch with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        /// The kind's name.
        public let description: String
        /// Creates a kind; use the static members.
        public init(_ name: String) { description = name }

        /// The request could not be built: an invalid base URL, path or header.
        public static let invalidRequest = Kind("invalid request")
        /// A value could not be encoded into the query or body.
        public static let encoding = Kind("encoding failed")
        /// The transport failed: connection refused or reset, a truncated body, DNS, TLS, ….
        public static let transport = Kind("transport failed")
        /// A middleware threw an error of its own.
        public static let middleware = Kind("middleware failed")
        /// The request took longer than its time limit.
        public static let timedOut = Kind("timed out")
        /// The request was cancelled.
        public static let cancelled = Kind("cancelled")
        /// The status was not acceptable and no error body could be decoded.
        public static let unacceptableStatus = Kind("unacceptable status")
        /// The status was not acceptable and the API's error body was decoded into ``APIError/errorBody``.
        public static let apiError = Kind("API error")
        /// The response was successful at the HTTP level, but its body reports a failure (an envelope's
        /// `"success": false`, Flickr's `"stat": "fail"`); the API's error is in ``APIError/errorBody``.
        public static let logicalError = Kind("the API reported a failure")
        /// The success body could not be decoded into the response type.
        public static let decoding = Kind("decoding failed")
        /// The response body is larger than the client's limit.
        public static let bodyTooLarge = Kind("body too large")
        /// An endpoint's ``Route/prepare(_:)`` or ``Endpoint/inspect(_:body:)`` hook threw.
        public static let rejected = Kind("rejected by the endpoint")
        /// Credentials could not be obtained: a token refresh failed or was refused by the refresh limit.
        public static let authenticationFailed = Kind("authentication failed")
        /// A download's file could not be created, written or moved into place.
        public static let fileAccess = Kind("file access failed")
    }

    /// The stage of a request. New phases may be added; switch with a `default`.
    public struct Phase: Hashable, Sendable, CustomStringConvertible {
        /// The phase's name.
        public let description: String
        /// Creates a phase; use the static members.
        public init(_ name: String) { description = name }

        /// Building the request from the endpoint.
        public static let building = Phase("building the request")
        /// Running the endpoint's ``Route/prepare(_:)`` hook on the built request.
        public static let preparing = Phase("preparing the request")
        /// Running the endpoint's ``Endpoint/inspect(_:body:)`` hook on the response.
        public static let inspecting = Phase("inspecting the response")
        /// Sending through middleware and the transport, until the response head arrives.
        public static let sending = Phase("sending")
        /// Checking the response status.
        public static let validating = Phase("validating the status")
        /// Reading the response body.
        public static let receiving = Phase("receiving the body")
        /// Decoding the response body.
        public static let decoding = Phase("decoding")
    }
}
