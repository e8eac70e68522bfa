import CourierTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

@testable import Courier

/// The contract of ``MiddlewareContext``: bound per request while a client runs middleware, read by
/// Courier's middleware, and never shared with the work a middleware does through another client.
@Suite struct MiddlewareContextTests {
    /// Records what context it sees, then sends a request of its own through `inner` before passing on.
    final class CallsAnotherClient: ClientMiddleware {
        let inner: APIClient
        let seen = Mutex<[String]>([])

        init(inner: APIClient) { self.inner = inner }

        func intercept(
            _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
            next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
        ) async throws -> (HTTPResponse, HTTPBody?) {
            let outer = MiddlewareContext.current
            seen.withLock { $0.append("outer names session: \(outer?.redaction.isSecretQueryName("session") == true)") }
            do throws(APIError) {
                try await inner.send(APIRequest<Void>.get("/inner"))
            } catch {
                seen.withLock { $0.append("inner attempts: \(error.attempts ?? 1)") }
            }
            #expect(MiddlewareContext.current === outer, "the inner client's context leaked out")
            return try await next(request, body, baseURL)
        }
    }

    @Test func aNestedClientKeepsItsOwnContext() async throws {
        let innerTransport = MockTransport { _ in throw URLError(.networkConnectionLost) }
        let inner = APIClient(
            baseURL: exampleBaseURL, transport: innerTransport,
            middlewares: [.retry(RetryPolicy(maxAttempts: 4, baseDelay: .milliseconds(1)))])
        let calling = CallsAnotherClient(inner: inner)
        let outerCalls = Atomic<Int>(0)
        let outerTransport = MockTransport { _ in
            if outerCalls.add(1, ordering: .relaxed).newValue == 1 {
                return (HTTPResponse(status: .badGateway), Data())
            }
            return (HTTPResponse(status: .ok), Data("done".utf8))
        }
        let outer = APIClient(
            baseURL: exampleBaseURL, transport: outerTransport,
            middlewares: [.retry(RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1))), calling]
        ) { $0.redaction.queryNames.insert("session") }

        let response = try await outer.response(APIRequest<String>.get("/outer"))
        #expect(response.value == "done")
        #expect(innerTransport.requests.count == 8, "each outer attempt runs the inner client's four attempts")
        #expect(
            calling.seen.withLock { $0 } == [
                "outer names session: true", "inner attempts: 4", "outer names session: true", "inner attempts: 4",
            ])
        // The outer failure counts only the outer attempts.
        let failing = APIClient(
            baseURL: exampleBaseURL, transport: MockTransport { _ in (HTTPResponse(status: .badGateway), Data()) },
            middlewares: [.retry(RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1))), calling])
        let error = await #expect(throws: APIError.self) { try await failing.send(APIRequest<Void>.get("/outer")) }
        #expect(error?.attempts == 2)
    }

    @Test func thereIsNoContextOutsideAClientsMiddleware() async throws {
        #expect(MiddlewareContext.current == nil)
        let seen = Mutex<Bool?>(nil)
        struct Probe: ClientMiddleware {
            let seen: @Sendable (Bool) -> Void
            func intercept(
                _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
                next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
            ) async throws -> (HTTPResponse, HTTPBody?) {
                seen(MiddlewareContext.current != nil)
                return try await next(request, body, baseURL)
            }
        }
        let client = APIClient(
            baseURL: exampleBaseURL, transport: MockTransport { _ in (HTTPResponse(status: .ok), Data()) },
            middlewares: [Probe { value in seen.withLock { $0 = value } }])
        try await client.send(APIRequest<Void>.get("/x"))
        #expect(seen.withLock { $0 } == true)
    }
}
