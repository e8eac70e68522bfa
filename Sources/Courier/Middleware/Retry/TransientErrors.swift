import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
#endif
#if canImport(NIOCore)
    import NIOCore
#endif

/// Which transport errors are worth retrying: the network failing in ways that a second attempt may not
/// meet (connection refused or reset, the connection lost, a timeout, a name that didn't resolve).
enum TransientErrors {
    static func isTransient(_ error: any Error) -> Bool {
        if error is CancellationError { return false }
        if let apiError = error as? APIError {
            return apiError.kind == .timedOut || apiError.kind == .transport
        }
        if let urlError = error as? URLError { return transientURLErrors.contains(urlError.code) }
        if let posix = error as? POSIXError { return transientErrnos.contains(posix.code.rawValue) }
        #if canImport(NIOCore)
            if let ioError = error as? IOError { return transientErrnos.contains(ioError.errnoCode) }
            if let channelError = error as? ChannelError {
                switch channelError {
                case .ioOnClosedChannel, .connectTimeout, .eof, .outputClosed: return true
                default: return false
                }
            }
        #endif
        #if canImport(AsyncHTTPClient)
            if let clientError = error as? HTTPClientError {
                return [.remoteConnectionClosed, .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded]
                    .contains(clientError)
            }
        #endif
        return false
    }

    private static let transientURLErrors: Set<URLError.Code> = [
        .timedOut, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost, .dnsLookupFailed,
        .notConnectedToInternet,
    ]

    private static let transientErrnos: Set<Int32> = [
        ECONNRESET, ECONNREFUSED, ECONNABORTED, ETIMEDOUT, EPIPE, ENETUNREACH, ENETDOWN, EHOSTUNREACH,
    ]
}
