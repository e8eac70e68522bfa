import Foundation
import OpenAPIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import NIOHTTP2
    import NIOPosix
#endif

/// What a transport's error means, in plain words: the one place that reads URLSession's, SwiftNIO's and
/// AsyncHTTPClient's errors. Error text (``FailureContext``) and retry decisions (``RetryPolicy``) both ask it.
///
/// Errors wrapped by swift-openapi-runtime's `ClientError` (as a generated client's middleware sees them)
/// are read through to what the transport threw.
struct TransportFailure: Equatable {
    /// ``APIError/Kind/transport``, ``APIError/Kind/timedOut``, ``APIError/Kind/cancelled``,
    /// ``APIError/Kind/contentDecoding`` or ``APIError/Kind/tls``.
    let kind: APIError.Kind
    /// What happened, such as `connection refused`; `nil` when the error's own text says it best.
    let reason: String?
    /// Whether a second attempt may meet a different outcome (refused, reset, lost, timed out, DNS).
    let isTransient: Bool

    /// The meaning of `error`, or `nil` when it is not a recognised network failure.
    static func classify(_ error: any Error) -> TransportFailure? {
        let error = unwrapped(error)
        if error is CancellationError { return TransportFailure(kind: .cancelled, reason: nil, isTransient: false) }
        // The same server presents the same certificate again: never transient.
        if let tls = error as? TLSFailure {
            return TransportFailure(kind: .tls, reason: tls.description, isTransient: false)
        }
        if let unsupported = error as? TransportUnsupported {
            return TransportFailure(kind: .unsupported, reason: unsupported.description, isTransient: false)
        }
        if let urlError = error as? URLError { return classify(urlError) }
        if let posix = error as? POSIXError { return network(errno: posix.code.rawValue) }
        #if canImport(AsyncHTTPClient)
            if let ioError = error as? IOError { return network(errno: ioError.errnoCode) }
            if let connection = error as? NIOConnectionError {
                return connection.connectionErrors.lazy.compactMap { classify($0.error) }.first
                    ?? TransportFailure(kind: .transport, reason: "could not connect", isTransient: true)
            }
            if let channelError = error as? ChannelError { return classify(channelError) }
            if let clientError = error as? HTTPClientError { return classify(clientError) }
            if let parserError = error as? HTTPParserError, parserError == .invalidEOFState { return network(cutShort) }
            // A stream the server refused or that closed with its connection (streams above a GOAWAY's last one
            // were never processed): the same request on a new connection may succeed.
            if let closed = error as? NIOHTTP2Errors.StreamClosed {
                return network("the server closed the HTTP/2 stream (\(closed.errorCode))")
            }
        #endif
        return nil
    }

    /// The error a transport met: under any `ClientError` wrapping it (a generated client's middleware sees
    /// those), and under the ``APIError`` a Courier transport makes of it for callers that show it as it is
    /// (``APIError/transportFailure(_:sending:to:)``), so it is judged as any other transport's.
    static func unwrapped(_ error: any Error) -> any Error {
        var error = error
        while true {
            if let clientError = error as? ClientError {
                error = clientError.underlyingError
            } else if let met = (error as? APIError)?.transportError {
                error = met
            } else {
                return error
            }
        }
    }

    private static func network(_ reason: String, transient: Bool = true) -> TransportFailure {
        TransportFailure(kind: .transport, reason: reason, isTransient: transient)
    }

    private static func timedOut(_ reason: String) -> TransportFailure {
        TransportFailure(kind: .timedOut, reason: reason, isTransient: true)
    }

    private static func network(errno: Int32) -> TransportFailure? {
        switch errno {
        case ECONNREFUSED: network("connection refused")
        case ECONNRESET: network("connection reset by the peer")
        case ECONNABORTED: network("connection aborted")
        case EPIPE: network("connection closed by the peer")
        case ETIMEDOUT: timedOut("connection timed out")
        case ENETUNREACH: network("network unreachable")
        case ENETDOWN: network("network down")
        case EHOSTUNREACH: network("host unreachable")
        default: nil
        }
    }

    private static func classify(_ error: URLError) -> TransportFailure? {
        switch error.code {
        case .cancelled: TransportFailure(kind: .cancelled, reason: nil, isTransient: false)
        case .timedOut: timedOut("the transport's time limit passed")
        // URLSession gives no errno: on Linux a refused connection is this code, as is a host that is down.
        case .cannotConnectToHost: network("connection refused")
        case .networkConnectionLost: network("connection lost")
        case .cannotFindHost, .dnsLookupFailed: network("host not found")
        case .notConnectedToInternet: network("not connected to the internet")
        case .secureConnectionFailed: network("TLS handshake failed", transient: false)
        case .badServerResponse: network("invalid response from the server", transient: false)
        // URLSession decodes gzip, deflate and br itself, and reports corrupt data as these; on Linux as an
        // unknown error carrying libcurl's text for CURLE_BAD_CONTENT_ENCODING.
        case .cannotDecodeContentData, .cannotDecodeRawData: undecodable
        case .unknown where error.localizedDescription.hasPrefix("Error while processing content unencoding"):
            undecodable
        // On Linux, libcurl's CURLE_PARTIAL_FILE: "transfer closed with 900 bytes remaining to read".
        case .unknown where error.localizedDescription.hasPrefix("transfer closed with"):
            network("\(cutShort) (\(error.localizedDescription))")
        default: nil
        }
    }

    /// A body that ended before its declared length, or a connection closed in the middle of a chunked one.
    private static let cutShort = "the connection closed before the body ended"

    private static let undecodable = TransportFailure(
        kind: .contentDecoding, reason: "URLSession could not decode the compressed body", isTransient: false)

    #if canImport(AsyncHTTPClient)
        private static func classify(_ error: ChannelError) -> TransportFailure? {
            switch error {
            case .connectTimeout: timedOut("connect timed out")
            case .ioOnClosedChannel, .eof, .outputClosed: network("connection closed")
            default: nil
            }
        }

        private static func classify(_ error: HTTPClientError) -> TransportFailure? {
            switch error {
            case .connectTimeout: timedOut("connect timed out")
            case .readTimeout: timedOut("read timed out")
            case .writeTimeout: timedOut("write timed out")
            case .deadlineExceeded: timedOut("no response before the deadline")
            case .remoteConnectionClosed: network("connection closed by the server")
            case .cancelled: TransportFailure(kind: .cancelled, reason: nil, isTransient: false)
            default: nil
            }
        }
    #endif
}
