public import Foundation
public import HTTPTypes
public import Logging
public import OpenAPIRuntime

/// Logs each request and its outcome with swift-log, never showing a secret.
///
/// Each request gets a short request id (logger metadata `request-id`). At ``level`` (debug by default):
/// the method and redacted URL, optionally a redacted `curl` command, and the status with duration and
/// sizes. At ``failureLevel`` (warning by default): thrown errors and responses with a 4xx or 5xx status.
/// Secret query items, header fields (`Authorization`, cookies, API keys) and body fields are redacted as
/// ``Redaction`` says. Nothing is formatted unless the logger would emit it.
/// ```swift
/// APIClient(baseURL: url, middlewares: [.logging(Logger(label: "api"), cURL: true), .retry()])
/// ```
public struct LoggingMiddleware: ClientMiddleware {
    /// Where log messages go.
    public var logger: Logger
    /// The level of request and response messages.
    public var level: Logger.Level
    /// The level of failures: thrown errors and 4xx/5xx responses.
    public var failureLevel: Logger.Level
    /// What to hide; ``Redaction/default`` unless given. Under an ``APIClient``, what the client's
    /// ``APIClient/Configuration/redaction`` names is hidden too.
    public var redaction: Redaction
    /// Whether each request is also logged as a redacted `curl` command.
    public var logsCURL: Bool

    /// Creates a logging middleware.
    public init(
        logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .warning,
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
        let quietest = min(level, failureLevel)
        guard logger.logLevel <= quietest else { return try await next(request, body, baseURL) }
        var logger = self.logger
        logger[metadataKey: "request-id"] = "\(Self.makeRequestID())"
        let redaction = self.redaction.union(ExchangeRecord.current?.redaction)
        let url = redaction.redact(url: baseURL.textWithoutTrailingSlash + (request.path ?? ""))
        let summary = "\(request.method.rawValue) \(url)"
        logger.log(
            level: level, "→ \(summary)",
            metadata: ["headers": "\(Self.describe(redaction.redact(headers: request.headerFields)))"])
        if logsCURL, logger.logLevel <= level {
            let bytes = await Self.replayableBytes(of: body)
            logger.log(level: level, "\(request.cURLDescription(baseURL: baseURL, body: bytes, redaction: redaction))")
        }
        let started = ContinuousClock.now
        do {
            let (response, responseBody) = try await next(request, body, baseURL)
            let elapsed = Self.milliseconds(since: started)
            let size = responseBody.map { Self.describe($0.length) } ?? "no body"
            let status = StatusText.describe(response.status)
            logger.log(
                level: response.status.code >= 400 ? failureLevel : level,
                "← \(status) \(summary) (\(elapsed), \(size))",
                metadata: ["status": "\(response.status.code)"])
            return (response, responseBody)
        } catch {
            let secrets = redaction.secrets(inPath: request.path, headers: request.headerFields)
            let reason = redaction.scrub(String(describing: error), secrets: secrets)
            logger.log(
                level: failureLevel, "✗ \(summary) failed after \(Self.milliseconds(since: started)): \(reason)")
            throw error
        }
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
        String(format: "%.1f ms", (ContinuousClock.now - start).inSeconds * 1000)
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
        _ logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level = .warning,
        redaction: Redaction = .default, cURL: Bool = false
    ) -> Self {
        LoggingMiddleware(
            logger: logger, level: level, failureLevel: failureLevel, redaction: redaction, logsCURL: cURL)
    }
}
