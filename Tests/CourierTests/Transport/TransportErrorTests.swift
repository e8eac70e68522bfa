import Foundation
import HTTPTypes
@_spi(Generated) import OpenAPIRuntime
import Synchronization
import Testing

@testable import Courier

/// Courier's transports say what went wrong themselves, so a generated client (which shows its transport's
/// error as it is) reads the same plain words an ``APIClient`` does, with secrets redacted.
@Suite(.timeLimit(.minutes(1))) struct TransportErrorTests {
    /// Courier's own transports on this platform.
    static var courierTransports: [TransportUnderTest] {
        TransportUnderTest.all.filter { $0 == .urlSession || $0 == .httpClient }
    }

    static let refusing = URL(string: "http://127.0.0.1:1")

    @Test(arguments: courierTransports)
    func aGeneratedClientReadsARefusedConnectionInPlainWords(transport: TransportUnderTest) async throws {
        let client = UniversalClient(serverURL: try #require(Self.refusing), transport: transport.make())
        let error = await #expect(throws: ClientError.self) {
            try await client.send(
                input: (), forOperation: "listItems",
                serializer: { _ in
                    (HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/items?api_key=SECRET-123"), nil)
                },
                deserializer: { _, _ in () })
        }
        let underlying = try #require(error?.underlyingError as? APIError)
        #expect(underlying.kind == .transport)
        #expect(
            underlying.description
                == "GET http://127.0.0.1:1/items?api_key=<redacted> failed — transport failed: connection refused (while sending)"
        )
        // openapi-runtime's own `ClientError` text also prints the request as given (its query included),
        // which is outside the transport's reach; the transport's part is plain and redacted.
        let text = "\(try #require(error))"
        #expect(text.contains("underlying error: \(underlying.description)"))
        #expect(!underlying.description.contains("SECRET-123") && !text.contains("errno"), "\(text)")
        #expect(RetryPolicy.isTransientByDefault(underlying), "a refused connection is worth another attempt")
    }

    /// A transport's error is judged by what the transport met: a failed TLS handshake or an unknown failure
    /// is not retried, though the transport reports both as `.transport`.
    @Test func retryJudgesATransportsErrorByWhatItMet() throws {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
        let base = try #require(Self.refusing)
        let refused = APIError.transportFailure(URLError(.cannotConnectToHost), sending: request, to: base)
        let handshake = APIError.transportFailure(URLError(.secureConnectionFailed), sending: request, to: base)
        struct Unknown: Error {}
        let unknown = APIError.transportFailure(Unknown(), sending: request, to: base)
        #expect((handshake as? APIError)?.kind == .transport && (unknown as? APIError)?.kind == .transport)
        #expect(RetryPolicy.isTransientByDefault(refused))
        #expect(!RetryPolicy.isTransientByDefault(handshake))
        #expect(!RetryPolicy.isTransientByDefault(unknown))
    }

    /// Inside an `APIClient`, what a span records is redacted with the client's own policy, not the default
    /// the transport alone knows: the transport's error is taken back to what it met.
    @Test(arguments: courierTransports)
    func middlewareInAClientSeesWhatTheTransportMet(transport: TransportUnderTest) async throws {
        let witness = ErrorWitness()
        let client = APIClient(
            baseURL: try #require(Self.refusing), transport: transport.make(), middlewares: [witness])
        _ = await #expect(throws: APIError.self) { try await client.send(APIRequest<Void>.get("/items")) }
        let error = try #require(witness.seen.withLock { $0 })
        #expect(!(error is APIError), "the transport's wrapper reached middleware: \(error)")
    }

    /// Keeps the error the next stage threw.
    final class ErrorWitness: ClientMiddleware {
        let seen = Mutex<(any Error)?>(nil)

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            do {
                return try await next(request, body, baseURL)
            } catch {
                seen.withLock { $0 = error }
                throw error
            }
        }
    }

    @Test(arguments: courierTransports)
    func theClientMapsATransportsErrorAgainWithItsOwnRedaction(transport: TransportUnderTest) async throws {
        let client = APIClient(baseURL: try #require(Self.refusing), transport: transport.make()) {
            $0.redaction.queryNames.insert("session_ref")
        }
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Void>.get("/items", query: ["session_ref": "SESSION-456"]))
        }
        #expect(error?.url == "http://127.0.0.1:1/items?session_ref=<redacted>")
        #expect(error?.underlyingError.map { $0 is APIError } == false, "the transport's own error, not its wrapper")
        #expect(error?.description.contains("SESSION-456") == false)
    }

    /// A body cut short (the server declares 1,000 bytes, sends 100 and closes) fails as an ``APIError`` that
    /// names the request, read through the transport alone as a generated client reads it.
    @Test(arguments: courierTransports)
    func aBodyCutShortFailsInPlainWordsNamingTheRequest(transport: TransportUnderTest) async throws {
        let base = try await TestServers.testServerURL()
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/truncated?api_key=SECRET-123")
        let (response, body) = try await transport.make().send(
            request, body: nil, baseURL: base, operationID: "truncated")
        #expect(response.status == .ok)
        let error = await #expect(throws: APIError.self) {
            _ = try await Data(collecting: try #require(body), upTo: 1 << 20)
        }
        #expect(error?.kind == .transport && error?.phase == .receiving, "\(String(describing: error))")
        let text = error?.description ?? ""
        #expect(
            text.hasPrefix(
                "GET \(base.absoluteString)/truncated?api_key=<redacted> failed: 200 OK — transport failed: "
                    + "the connection closed before the body ended"), "\(text)")
        #expect(text.hasSuffix("(while receiving the body)") && !text.contains("SECRET-123"), "\(text)")
        #expect(error?.transportError != nil, "what the transport met is kept")
    }

    /// Inside a client the same cut-short body is the client's own error: redacted with its policy, with what
    /// the transport met as the underlying error, not the transport's wrapper.
    @Test(arguments: courierTransports)
    func aClientReadsABodyCutShortWithItsOwnRedaction(transport: TransportUnderTest) async throws {
        let client = APIClient(baseURL: try await TestServers.testServerURL(), transport: transport.make()) {
            $0.redaction.queryNames.insert("session_ref")
        }
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Data>.get("/truncated", query: ["session_ref": "SESSION-456"]))
        }
        #expect(error?.phase == .receiving)
        #expect(error?.url?.hasSuffix("/truncated?session_ref=<redacted>") == true, "\(String(describing: error))")
        #expect(error?.underlyingError.map { $0 is APIError } == false, "the transport's own error, not its wrapper")
    }

    @Test(arguments: courierTransports)
    func aCancelledSendStaysACancellation(transport: TransportUnderTest) async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.make().send(
                HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
                baseURL: try #require(Self.refusing), operationID: "x")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
