import Courier
import OpenAPIRuntime
import OpenAPIURLSession
import Testing

#if canImport(OpenAPIAsyncHTTPClient)
    import OpenAPIAsyncHTTPClient
#endif

/// Every real transport the conformance suites run against. A new transport is one case here.
enum TransportUnderTest: String, Sendable, CustomTestStringConvertible {
    case urlSession
    case asyncHTTPClient

    /// The transports available on this platform.
    static var all: [TransportUnderTest] {
        #if canImport(OpenAPIAsyncHTTPClient)
            [.urlSession, .asyncHTTPClient]
        #else
            [.urlSession]
        #endif
    }

    func make() -> any ClientTransport {
        switch self {
        case .urlSession:
            return URLSessionTransport()
        case .asyncHTTPClient:
            #if canImport(OpenAPIAsyncHTTPClient)
                return AsyncHTTPClientTransport()
            #else
                return URLSessionTransport()
            #endif
        }
    }

    var testDescription: String { rawValue }
}
