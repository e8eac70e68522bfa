public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Logs each request and its outcome with swift-log, never showing a secret.
///
/// It follows the swift-server logging convention (as AsyncHTTPClient does): messages are constant and the
/// values are metadata, each request gets a logger of its own (a copy of ``logger``, whose metadata is
/// kept, with `courier-request-id`, `courier-method` and the redacted `courier-url` added, so every message
/// names its request), and nothing is logged above ``level`` unless you ask: a 4xx or 5xx response or a
/// thrown error is logged at ``failureLevel``, which is `.debug` by default too, since the caller receives
/// and handles it.
///
/// | message | metadata besides the request's |
/// |---|---|
/// | `Sending request` | `courier-headers` (and `courier-curl` when asked) |
/// | `Received response` | `courier-status`, `courier-duration-ms`, `courier-body-size` |
/// | `Request failed` | `courier-error`, `courier-duration-ms` |
///
/// Secret query items, header fields (`Authorization`, cookies, API keys) and body fields are redacted as
/// ``Redaction`` says. Nothing is formatted unless the logger would emit it.
/// ```swift
/// let client = APIClient(baseURL: url, middlewares: [.logging(Logger(label: "api"), logsCURL: true), .retry()])
/// ```
public struct LoggingMiddleware: ClientMiddleware {
    /// Where log messages go; each request logs through a copy with its own `courier-request-id`.
    public var logger: Logger
    /// The level of request and response messages; `.debug` by default.
    public var level: Logger.Level
    /// The level of failures: thrown errors and responses with a 4xx or 5xx status; `.debug` by default.
    public var failureLevel: Logger.Level
    /// What to hide; ``Redaction/default`` unless given. Under an ``APIClient``, what the client's
    /// ``APIClient/Configuration/redaction`` names is hidden too.
    public var redaction: Redaction
    /// Whether each request's metadata also carries it as a redacted `curl` command (`courier-curl`).
    public var logsCURL: Bool

    /// Creates a logging middleware.
    public init(
        logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .debug,
        redaction: Redaction = .default, logsCURL: Bool = false
    ) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
        self.redaction = redaction
        self.logsCURL = logsCURL
    }

    /// Logs the request, passes it on, and logs the response or the error.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard logger.logLevel <= min(level, failureLevel) else { return try await next(request, body, baseURL) }
        let redaction = self.redaction.union(MiddlewareContext.current?.redaction)
        var logger = self.logger
        logger[metadataKey: "courier-request-id"] = "\(Self.makeRequestID())"
        logger[metadataKey: "courier-method"] = "\(request.method.rawValue)"
        logger[metadataKey: "courier-url"] =
            "\(redaction.redact(url: baseURL.textWithoutTrailingSlash + (request.path ?? "")))"
        if logger.logLevel <= level {
            var metadata: Logger.Metadata = [
                "courier-headers": "\(Self.describe(redaction.redact(headers: request.headerFields)))"
            ]
            if logsCURL {
                let bytes = await Self.replayableBytes(of: body)
                metadata["courier-curl"] =
                    "\(request.cURLDescription(baseURL: baseURL, body: bytes, redaction: redaction))"
            }
            logger.log(level: level, "Sending request", metadata: metadata)
        }
        let started = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, baseURL)
            logger.log(
                level: response.status.code >= 400 ? failureLevel : level, "Received response",
                metadata: [
                    "courier-status": "\(StatusText.describe(response.status))",
                    "courier-duration-ms": "\(Self.milliseconds(since: started))",
                    "courier-body-size": "\(responseBody.map { Self.describe($0.length) } ?? "no body")",
                ])
            return (response, responseBody)
        } catch {
            logger.log(
                level: failureLevel, "Request failed",
                metadata: [
                    "courier-error": "\(Self.scrubbed(error, of: request, redaction: redaction))",
                    "courier-duration-ms": "\(Self.milliseconds(since: started))",
                ])
            throw error
        }
    }

    /// The error's text with every secret the request carried scrubbed, read through `ClientError` wrapping.
    private static func scrubbed(_ error: any Error, of request: HTTPRequest, redaction: Redaction) -> String {
        // What inner middleware added is hidden too: the context saw the heads the transport received.
        let sent = MiddlewareContext.current?.sentRequests ?? []
        let secrets = redaction.secretValues(in: [request] + sent)
        let error = TransportFailure.unwrapped(error)
        let text = TransportFailure.classify(error)?.reason ?? String(describing: error)
        return redaction.scrub(text, secrets: secrets)
    }

    private static func makeRequestID() -> String {
        let id = String(UInt64.random(in: 0..<(1 << 40)), radix: 36)
        return String(repeating: "0", count: max(0, 8 - id.count)) + id
    }

    private static func describe(_ fields: HTTPFields) -> String {
        fields.map { "\($0.name.rawName): \($0.value)" }.joined(separator: ", ")
    }

    private static func describe(_ length: HTTPBody.Length) -> String {
        switch length {
        case .known(let bytes): "\(bytes) bytes"
        case .unknown: "streamed body"
        }
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> String {
        String(format: "%.1f", (ContinuousClock.now - start).inSeconds * 1000)
    }

    /// The body's bytes when it can be read again afterwards and is small; otherwise `nil`.
    private static func replayableBytes(of body: HTTPBody?) async -> Data? {
        guard let body, body.iterationBehavior == .multiple else { return nil }
        if case .known(let length) = body.length, length > 64 * 1024 { return nil }
        return try? await Data(collecting: body, upTo: 64 * 1024)
    }
}

extension ClientMiddleware where Self == LoggingMiddleware {
    /// Logs requests and responses to `logger`, secrets redacted; see ``LoggingMiddleware``.
    public static func logging(
        _ logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .debug,
        redaction: Redaction = .default, logsCURL: Bool = false
    ) -> Self {
        LoggingMiddleware(
            logger: logger, level: level, failureLevel: failureLevel, redaction: redaction, logsCURL: logsCURL)
    }

    /// The former spelling of ``logging(_:level:failureLevel:redaction:logsCURL:)``.
    @available(*, deprecated, renamed: "logging(_:level:failureLevel:redaction:logsCURL:)")
    public static func logging(
        _ logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .debug,
        redaction: Redaction = .default, cURL: Bool
    ) -> Self {
        .logging(logger, level: level, failureLevel: failureLevel, redaction: redaction, logsCURL: cURL)
    }
}
