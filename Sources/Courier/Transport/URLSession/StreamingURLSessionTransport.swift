public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#else
    import Security
#endif

/// A `ClientTransport` over URLSession that streams responses, follows no redirect, and keeps no state of
/// its own: Courier's transport on Apple platforms, and a URLSession choice on Linux.
///
/// It differs from swift-openapi-urlsession's `URLSessionTransport` where Courier's guarantees need it
/// (measured on Linux, see <doc:Guarantees>):
/// - **Responses stream on every platform, with bounded memory.** The reader takes what has arrived in one
///   chunk, so a body limit stops an endless body after about the limit. On Apple platforms, when more than
///   `bufferSize` bytes wait unread, the task is suspended until the reader catches up, so a body of any size
///   costs about `bufferSize` of memory. FoundationNetworking (Linux) can't pause a transfer (resuming one
///   restarts it from the first byte), so there a transfer whose reader falls more than `readAheadLimit`
///   bytes behind fails with ``ReadAheadExceeded`` (the `underlyingError` of the ``APIError`` that reading the
///   body throws) instead of growing without bound (``APIClient``'s
///   `download` then continues from the bytes written, with `Range`, where the server accepts ranges).
///   `URLSessionTransport` buffers whole bodies on Linux.
/// - **Redirects are handed back** (the delegate refuses them), so ``APIClient`` follows them by its
///   ``RedirectPolicy``, with credentials removed across origins. `URLSession` alone would carry every
///   header to any `Location`, and on Linux follows even `file:` locations.
/// - **No cache, no cookie store**: the session's `urlCache` and `httpCookieStorage` are off, and a response
///   body is never copied into a cache buffer (on Linux, `URLCache` keeps a copy of every cacheable body
///   while it arrives).
/// - **Decoded bodies say so.** URLSession always decodes `gzip`, `deflate` and `br`; the response head then
///   drops `Content-Encoding` and `Content-Length` (which describe the bytes on the wire), so no layer above
///   decodes twice or trusts a length the body no longer has.
/// - **Cancellation is race-free**: cancelling the Swift task while it waits for the head or reads the body,
///   or dropping the body before its end, cancels the URLSession task, whatever point the exchange has
///   reached.
///
/// Request bodies are read before the request is sent: up to 1 MiB into memory, anything longer into a
/// temporary file that URLSession streams from (URLSession on Linux cannot read a body from a stream).
///
/// On Linux, prefer ``HTTPClientTransport`` (the default there): swift-corelibs-foundation 6.3 ends the
/// process when a server closes the connection inside a response head (<doc:TransportsAndLinux>).
public final class StreamingURLSessionTransport: ClientTransport {
    /// The session every request goes through, with this transport's delegate.
    public let session: URLSession
    /// How many unread response bytes may wait before the URLSession task is suspended (Apple platforms).
    public let bufferSize: Int
    /// How many unread response bytes may wait before the transfer fails with ``ReadAheadExceeded``
    /// (Linux, where a transfer can't be paused).
    public let readAheadLimit: Int
    /// The TLS settings of the transport's requests (see ``init(tls:configuration:timeout:bufferSize:readAheadLimit:)``).
    public let tls: TLSSettings
    /// Why URLSession cannot apply ``tls`` here, when it cannot: every https request then fails with it.
    private let tlsUnsupported: TransportUnsupported?
    private let router: SessionRouter

    /// The transport ``DefaultTransport`` uses on Apple platforms: an ephemeral configuration, for the
    /// life of the process.
    public static let shared = StreamingURLSessionTransport()

    /// A transport with its own session, made from `configuration` with caching and cookies turned off;
    /// `timeout` is how long the exchange may go without receiving anything (URLSession's
    /// `timeoutIntervalForRequest`); `bufferSize` and `readAheadLimit` bound the unread bytes it holds.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral, timeout: TimeInterval = 60,
        bufferSize: Int = 256 * 1024, readAheadLimit: Int = 64 * 1024 * 1024
    ) {
        self.init(
            tls: .default, configuration: configuration, timeout: timeout, bufferSize: bufferSize,
            readAheadLimit: readAheadLimit)
    }

    /// A transport as ``init(configuration:timeout:bufferSize:readAheadLimit:)`` whose https requests use `tls`.
    ///
    /// URLSession on Linux trusts only the system's roots and takes no client certificate or pins: with settings
    /// that need those, every https request fails with ``APIError/Kind/unsupported`` instead of connecting with
    /// weaker checks (<doc:TLSAndHTTP2>).
    public init(
        tls: TLSSettings, configuration: URLSessionConfiguration = .ephemeral, timeout: TimeInterval = 60,
        bufferSize: Int = 256 * 1024, readAheadLimit: Int = 64 * 1024 * 1024
    ) {
        self.tls = tls
        tlsUnsupported = URLSessionTLS.unsupported(tls)
        let configuration = configuration.copy() as? URLSessionConfiguration ?? .ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        #if !canImport(FoundationNetworking)
            // The system's own minimum may be lower where App Transport Security does not apply.
            configuration.tlsMinimumSupportedProtocolVersion = tls.minimumVersion == .tls13 ? .TLSv13 : .TLSv12
        #endif
        let queue = OperationQueue()
        queue.name = "Courier.StreamingURLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        router = SessionRouter()
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
        self.bufferSize = max(bufferSize, 16 * 1024)
        self.readAheadLimit = max(readAheadLimit, self.bufferSize)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and returns the response head once it arrives, with the body streaming behind it. A
    /// failure to send is an ``APIError`` that names the request and says what happened (a cancellation stays
    /// a `CancellationError`).
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        // In this frame: a function of its own would cost an async frame per request.
        do {
            if let tlsUnsupported, baseURL.isHTTPS { throw tlsUnsupported }
            let urlRequest = try Self.makeURLRequest(request, baseURL: baseURL)
            let upload = try await RequestBodySpool.read(body)
            let task: URLSessionTask
            switch upload {
            case .none: task = session.dataTask(with: urlRequest)
            case .data(let data): task = session.uploadTask(with: urlRequest, from: data)
            case .file(let file): task = session.uploadTask(with: urlRequest, fromFile: file)
            }
            let exchange = TaskExchange(
                task: task, bufferSize: bufferSize, readAheadLimit: readAheadLimit, spooledFile: upload.file)
            router.register(exchange, for: task)
            let response = try await withTaskCancellationHandler {
                try await exchange.responseHead()
            } onCancel: {
                exchange.cancel()
            }
            return Self.makeResponse(response, body: exchange.makeBody(), to: request, baseURL: baseURL)
        } catch {
            let tlsFailure = baseURL.isHTTPS ? URLSessionTLS.failure(error, host: baseURL.host ?? "") : nil
            throw APIError.transportFailure(tlsFailure ?? error, sending: request, to: baseURL)
        }
    }

    /// The `URLRequest` for `request`: the base URL's text followed by the encoded path, with every field.
    ///
    /// The fields are set as one dictionary instead of by `addValue`, which (FoundationNetworking) re-validates
    /// each value Character by Character, capitalises the name and compares it, lower-cased, with every name
    /// already set: about 15,000 instructions for two fields (callgrind, issue #14). `HTTPFields` has already
    /// made the values legal (no CR, LF or NUL) and checked the names. Fields of one name, however it is
    /// spelled, become one line under the first spelling, joined as `HTTPFields` joins them (`, `, or `; ` for
    /// `Cookie`): FoundationNetworking sends only one of two keys that differ in case.
    static func makeURLRequest(_ request: HTTPRequest, baseURL: URL) throws -> URLRequest {
        let text = baseURL.textWithoutTrailingSlash + (request.path ?? "")
        guard let url = URL(string: text) else { throw InvalidURL(text: text) }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method.rawValue
        var fields: [String: String] = [:]
        fields.reserveCapacity(request.headerFields.count)
        // Each name's first spelling, by canonical name.
        var spellings: [String: String] = [:]
        for field in request.headerFields where field.name != .transferEncoding {
            if let first = spellings[field.name.canonicalName] {
                // Repeated (rare): HTTPTypes' subscript joins them all (generic, so not for every field).
                fields[first] = request.headerFields[field.name]
            } else {
                spellings[field.name.canonicalName] = field.name.rawName
                fields[field.name.rawName] = field.value
            }
        }
        urlRequest.allHTTPHeaderFields = fields
        return urlRequest
    }

    /// The text was not a URL Foundation accepts.
    struct InvalidURL: Error, CustomStringConvertible {
        let text: String
        var description: String { "URLSession cannot send to \"\(text)\": not a valid URL" }
    }

    /// The response head with every field, and `body` unless the method has none.
    static func makeResponse(
        _ response: HTTPURLResponse, body: TaskExchange.Chunks, to request: HTTPRequest, baseURL: URL
    ) -> (HTTPResponse, HTTPBody?) {
        let head = HTTPResponse(status: .init(code: response.statusCode), headerFields: Self.fields(of: response))
        return (head, HTTPBody.response(body, of: head, to: request, baseURL: baseURL))
    }

    /// The fields of `response`, each repeated `Set-Cookie` its own field again, and without `Content-Encoding`
    /// and `Content-Length` when URLSession has decoded the body: they described the bytes on the wire.
    static func fields(of response: HTTPURLResponse) -> HTTPFields {
        var fields = HTTPFields()
        var decodedCoding = false
        for (name, value) in response.allHeaderFields {
            // Casting `Any` (the key's base), not `AnyHashable`: a fifth of the cost.
            guard let name = name.base as? String, let value = value as? String,
                let fieldName = HTTPField.Name.parsing(name)
            else { continue }
            guard fieldName != .setCookie else {
                // URLSession joins repeated fields with ", "; each cookie gets its own field back.
                for cookie in SetCookie.split(joined: value) {
                    fields.append(HTTPField(name: .setCookie, value: cookie))
                }
                continue
            }
            // The field's value, not the raw one: HTTPTypes trims the whitespace around it (`gzip `).
            let field = HTTPField(name: fieldName, value: value)
            if fieldName == .contentEncoding { decodedCoding = Self.isDecodedByURLSession(field.value) }
            fields.append(field)
        }
        if decodedCoding {
            fields[.contentEncoding] = nil
            fields[.contentLength] = nil
        }
        return fields
    }

    /// Whether URLSession decodes a body in `coding` (a `Content-Encoding` value) before handing it over.
    static func isDecodedByURLSession(_ coding: String) -> Bool {
        switch coding.lowercased() {
        case "gzip", "x-gzip", "deflate", "br": true
        default: false
        }
    }
}
