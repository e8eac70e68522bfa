public import Foundation
public import HTTPTypes

/// Every failure of a request: what went wrong (``kind``), where (``phase``), on which request
/// (``method`` and the redacted ``url``), and what came back (``status``, ``responseHeaders``, a bounded
/// ``bodySnippet``, the decoded ``errorBody``).
///
/// ```swift
/// do {
///     _ = try await client.send(GetUser(login: "nobody"))
/// } catch let error where error.kind == .apiError {
///     print(error.errorBody(as: GitHubError.self)?.message ?? "")  // "Not Found"
/// } catch {
///     print(error)  // a network failure, a timeout, a body that did not decode, …
/// }
/// ```
/// Its `description` is one line and never contains a secret: API keys, tokens and passwords are
/// redacted from the URL, the headers, the body snippet and the underlying error's text.
public struct APIError: Error, Sendable {
    /// All of the error's fields, behind one immutable reference: an `APIError` is then a single pointer,
    /// which keeps every async frame on the request path small (errors are thrown as a typed `APIError`,
    /// so each frame reserves room for one).
    private final class Box: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private struct Fields {
        var kind: Kind
        var phase: Phase
        var method: HTTPRequest.Method?
        var url: String?
        var status: HTTPResponse.Status?
        var responseHeaders: HTTPFields?
        var bodySnippet: String?
        var body: Data?
        var errorBody: (any Sendable)?
        var message: String?
        var underlyingError: (any Error)?
        var attempts: Int?
        var redirects: [Redirect]
        var resumeData: DownloadResumeData?
        /// The error a Courier transport threw, as it threw it, when the transport made this error: the client
        /// maps it again with its own redaction and context (see ``transportFailure(_:sending:to:)``).
        var transportError: (any Error)?
    }

    private var box: Box

    private subscript<Value>(field field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set {
            var fields = box.fields
            fields[keyPath: field] = newValue
            box = Box(fields)
        }
    }

    /// What went wrong.
    public var kind: Kind {
        get { self[field: \.kind] }
        set { self[field: \.kind] = newValue }
    }
    /// The stage of the request that failed.
    public var phase: Phase {
        get { self[field: \.phase] }
        set { self[field: \.phase] = newValue }
    }
    /// The request's method, when a request was built.
    public var method: HTTPRequest.Method? {
        get { self[field: \.method] }
        set { self[field: \.method] = newValue }
    }
    /// The request's full URL with secret query values replaced by `<redacted>`.
    public var url: String? {
        get { self[field: \.url] }
        set { self[field: \.url] = newValue }
    }
    /// The response status, when a response head arrived.
    public var status: HTTPResponse.Status? {
        get { self[field: \.status] }
        set { self[field: \.status] = newValue }
    }
    /// The response header fields, secret ones redacted.
    public var responseHeaders: HTTPFields? {
        get { self[field: \.responseHeaders] }
        set { self[field: \.responseHeaders] = newValue }
    }
    /// Part of the response body as one line of text (at most ``snippetLimit`` characters), as it came but
    /// with secrets redacted in place: the start, or for a decoding error the part where decoding failed.
    public var bodySnippet: String? {
        get { self[field: \.bodySnippet] }
        set { self[field: \.bodySnippet] = newValue }
    }
    /// The response body as it came (up to ``bodyLimit`` bytes), secrets redacted in place, for error formats
    /// Courier does not decode: parse it yourself. `nil` when there was no body.
    public var body: Data? {
        get { self[field: \.body] }
        set { self[field: \.body] = newValue }
    }
    /// The API's own error body: the request's error-body type (``Route/errorBody``, else the client's
    /// ``APIClient/Configuration/errorBody``) decoded from the response, or the error its envelope reported.
    public var errorBody: (any Sendable)? {
        get { self[field: \.errorBody] }
        set { self[field: \.errorBody] = newValue }
    }
    /// What the failure was, in words, when no underlying error says it better.
    public var message: String? {
        get { self[field: \.message] }
        set { self[field: \.message] = newValue }
    }
    /// The error that caused this one, if any (a `DecodingError`, a transport error, …).
    public var underlyingError: (any Error)? {
        get { self[field: \.underlyingError] }
        set { self[field: \.underlyingError] = newValue }
    }
    /// How many times the request was sent, when a retry middleware sent it more than once.
    public var attempts: Int? {
        get { self[field: \.attempts] }
        set { self[field: \.attempts] = newValue }
    }
    /// The redirects the request followed before it failed, in order (empty when it followed none).
    public var redirects: [Redirect] {
        get { self[field: \.redirects] }
        set { self[field: \.redirects] = newValue }
    }
    /// For an interrupted download that can continue: pass it to
    /// ``APIClient/download(_:to:resumingFrom:progress:)``.
    public var resumeData: DownloadResumeData? {
        get { self[field: \.resumeData] }
        set { self[field: \.resumeData] = newValue }
    }

    /// The error a Courier transport threw, when a transport made this error (internal: see
    /// ``transportFailure(_:sending:to:)``).
    var transportError: (any Error)? {
        get { self[field: \.transportError] }
        set { self[field: \.transportError] = newValue }
    }

    /// The most characters of a response body kept in ``bodySnippet``.
    public static let snippetLimit = 512
    /// The most bytes of a response body kept in ``body``: 64 KiB.
    public static let bodyLimit = 64 * 1024

    /// Creates an error. Courier fills in the request and response context itself.
    public init(
        _ kind: Kind, phase: Phase, message: String? = nil, underlyingError: (any Error)? = nil
    ) {
        box = Box(
            Fields(
                kind: kind, phase: phase, method: nil, url: nil, status: nil, responseHeaders: nil, bodySnippet: nil,
                body: nil,
                errorBody: nil, message: message, underlyingError: underlyingError, attempts: nil, redirects: [],
                resumeData: nil, transportError: nil))
    }

    /// Why the TLS connection failed, for an error of kind ``Kind/tls``.
    public var tlsFailure: TLSFailure? { underlyingError.flatMap { TransportFailure.unwrapped($0) as? TLSFailure } }

    /// The decoded error body as a `T`, if it is one.
    public func errorBody<T>(as type: T.Type) -> T? { errorBody as? T }
}

extension APIError {
    /// What went wrong. New kinds may be added; switch with a `default`.
    ///
    /// Two kinds are equal when they are the same kind, whatever their ``description`` says: the text may
    /// be reworded between releases, the identity never is.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case invalidRequest, encoding, transport, middleware, timedOut, cancelled, unacceptableStatus, apiError
            case logicalError, decoding, bodyTooLarge, rejected, authenticationFailed, fileAccess
            case tooManyRedirects, redirectRefused, contentDecoding, tls, unsupported, signInRequired
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// The request could not be built: an invalid base URL, path or header.
        public static let invalidRequest = Kind(.invalidRequest)
        /// A value could not be encoded into the query or body.
        public static let encoding = Kind(.encoding)
        /// The transport failed: connection refused or reset, a truncated body, DNS, TLS, ….
        public static let transport = Kind(.transport)
        /// A middleware threw an error of its own.
        public static let middleware = Kind(.middleware)
        /// The request took longer than its time limit.
        public static let timedOut = Kind(.timedOut)
        /// The request was cancelled.
        public static let cancelled = Kind(.cancelled)
        /// The status was not acceptable and no error body could be decoded.
        public static let unacceptableStatus = Kind(.unacceptableStatus)
        /// The status was not acceptable and the API's error body was decoded into ``APIError/errorBody``.
        public static let apiError = Kind(.apiError)
        /// The response was successful at the HTTP level, but its body reports a failure (an envelope's
        /// `"success": false`, Flickr's `"stat": "fail"`); the API's error is in ``APIError/errorBody``.
        public static let logicalError = Kind(.logicalError)
        /// The success body could not be decoded into the response type.
        public static let decoding = Kind(.decoding)
        /// The response body is larger than the client's limit.
        public static let bodyTooLarge = Kind(.bodyTooLarge)
        /// An endpoint's ``Route/prepare(_:)`` or ``Endpoint/inspect(_:body:)`` hook threw.
        public static let rejected = Kind(.rejected)
        /// Credentials could not be obtained: a token refresh failed or was refused by the refresh limit.
        public static let authenticationFailed = Kind(.authenticationFailed)
        /// A file could not be used: one to send (``RequestBody/file(_:contentType:)``, a multipart part) is missing
        /// or unreadable, or a download's file could not be created, written or moved into place.
        public static let fileAccess = Kind(.fileAccess)
        /// The request was redirected more often than its ``RedirectPolicy`` allows, or back to a URL it had
        /// already visited; ``APIError/redirects`` holds the chain.
        public static let tooManyRedirects = Kind(.tooManyRedirects)
        /// A redirect the ``RedirectPolicy`` does not follow: to a scheme other than `http(s)`, from `https` to
        /// `http`, or one that would have to resend a body that can be read only once.
        public static let redirectRefused = Kind(.redirectRefused)
        /// The response's `Content-Encoding` is not one Courier decodes (it decodes gzip and deflate), or its
        /// compressed data is corrupt or cut short.
        public static let contentDecoding = Kind(.contentDecoding)
        /// A TLS connection could not be made safely: the server's certificate did not verify or match a pin,
        /// the server wanted a client certificate, or it did not speak TLS. ``APIError/tlsFailure`` says which.
        /// Never retried.
        public static let tls = Kind(.tls)
        /// The transport cannot do what the request or the client's settings need, such as trusting another
        /// root on URLSession on Linux; the message says what and what to use instead. Never retried.
        public static let unsupported = Kind(.unsupported)
        /// The user must sign in again: the authorization server refused the refresh token (`invalid_grant`,
        /// expired or revoked), or there is no token to refresh. The stored tokens were removed, so a retry
        /// fails the same way until a new sign-in; never retried.
        public static let signInRequired = Kind(.signInRequired)

        /// The kind's stable name, its static property's (`timedOut`, `apiError`, …): a low-cardinality label for
        /// metrics and traces, which never changes with the wording of ``description``.
        public var name: String {
            switch code {
            case .invalidRequest: "invalidRequest"
            case .encoding: "encoding"
            case .transport: "transport"
            case .middleware: "middleware"
            case .timedOut: "timedOut"
            case .cancelled: "cancelled"
            case .unacceptableStatus: "unacceptableStatus"
            case .apiError: "apiError"
            case .logicalError: "logicalError"
            case .decoding: "decoding"
            case .bodyTooLarge: "bodyTooLarge"
            case .rejected: "rejected"
            case .authenticationFailed: "authenticationFailed"
            case .fileAccess: "fileAccess"
            case .tooManyRedirects: "tooManyRedirects"
            case .redirectRefused: "redirectRefused"
            case .contentDecoding: "contentDecoding"
            case .tls: "tls"
            case .unsupported: "unsupported"
            case .signInRequired: "signInRequired"
            }
        }

        /// The kind in words, as error descriptions show it.
        public var description: String {
            switch code {
            case .invalidRequest: "invalid request"
            case .encoding: "encoding failed"
            case .transport: "transport failed"
            case .middleware: "middleware failed"
            case .timedOut: "timed out"
            case .cancelled: "cancelled"
            case .unacceptableStatus: "unacceptable status"
            case .apiError: "API error"
            case .logicalError: "the API reported a failure"
            case .decoding: "decoding failed"
            case .bodyTooLarge: "body too large"
            case .rejected: "rejected by the endpoint"
            case .authenticationFailed: "authentication failed"
            case .fileAccess: "file access failed"
            case .tooManyRedirects: "too many redirects"
            case .redirectRefused: "redirect refused"
            case .contentDecoding: "content decoding failed"
            case .tls: "TLS failed"
            case .unsupported: "not supported by the transport"
            case .signInRequired: "sign in again"
            }
        }
    }

    /// The stage of a request. New phases may be added; switch with a `default`.
    ///
    /// Like ``Kind``, a phase's identity does not depend on its ``description``.
    public struct Phase: Hashable, Sendable, CustomStringConvertible {
        private enum Code: Hashable, Sendable {
            case building, preparing, sending, redirecting, validating, receiving, inspecting, decoding
        }

        private let code: Code

        private init(_ code: Code) { self.code = code }

        /// Building the request from the endpoint.
        public static let building = Phase(.building)
        /// Running the endpoint's ``Route/prepare(_:)`` hook on the built request.
        public static let preparing = Phase(.preparing)
        /// Sending through middleware and the transport, until the response head arrives.
        public static let sending = Phase(.sending)
        /// Following a redirect (see ``RedirectPolicy``).
        public static let redirecting = Phase(.redirecting)
        /// Checking the response status.
        public static let validating = Phase(.validating)
        /// Reading the response body.
        public static let receiving = Phase(.receiving)
        /// Running the endpoint's ``Endpoint/inspect(_:body:)`` hook on the response.
        public static let inspecting = Phase(.inspecting)
        /// Decoding the response body.
        public static let decoding = Phase(.decoding)

        /// The phase in words, as error descriptions show it.
        public var description: String {
            switch code {
            case .building: "building the request"
            case .preparing: "preparing the request"
            case .sending: "sending"
            case .redirecting: "following a redirect"
            case .validating: "validating the status"
            case .receiving: "receiving the body"
            case .inspecting: "inspecting the response"
            case .decoding: "decoding"
            }
        }
    }
}
