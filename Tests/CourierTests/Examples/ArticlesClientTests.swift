import Courier
import CourierDemoServer
import CourierExamples
import Foundation
import HTTPTypes
import Testing

@Suite(.timeLimit(.minutes(1))) struct ArticlesClientTests {
    struct Stats: Decodable, Sendable { let maxInFlight: Int }

    func api(
        _ base: URL, _ transport: any ClientTransport, password: String = DemoCredentials.envelopePassword
    ) -> ArticlesClient {
        ArticlesClient(
            baseURL: base, username: DemoCredentials.envelopeUser, password: Secret(password), transport: transport)
    }

    @Test(arguments: ExampleBackend.active) func logsInByItselfAndUnwrapsArticles(_ backend: ExampleBackend)
        async throws
    {
        try await backend.run { base, transport in
            let api = api(base, transport)
            let articles = try await api.articles(page: 1)
            #expect(articles.count == 10)
            #expect(try await api.article(id: articles[0].id) == articles[0])
            #expect(try await api.avatar() == nil)
        }
    }

    @Test(arguments: ExampleBackend.active) func logicalFailuresCarryTheAPIsErrorAndServerErrorsStayServerErrors(
        _ backend: ExampleBackend
    ) async throws {
        try await backend.run { base, transport in
            let missing = await #expect(throws: APIError.self) { try await api(base, transport).article(id: 9999) }
            #expect(missing?.kind == .logicalError)
            #expect(missing?.errorBody(as: SuccessFlagEnvelope.ErrorInfo.self)?.errorCode == 1004)
            let wrongPassword = await #expect(throws: APIError.self) {
                try await api(base, transport, password: "nope-wrong-password").articles()
            }
            #expect(wrongPassword?.kind == .authenticationFailed)
            #expect(wrongPassword?.description.contains("Invalid username or password") == true)
        }
    }

    @Test(arguments: ExampleBackend.active) func atMostTwoRequestsAreInFlight(_ backend: ExampleBackend) async throws {
        try await backend.run { base, transport in
            let api = api(base, transport)
            try await withThrowingTaskGroup(of: Void.self) { group in
                // Each answer takes 400 ms, long enough for two to overlap even when the whole suite's load
                // delays a request's start (80 ms was not, on this 2-core machine).
                for page in 1...4 {
                    for _ in 0..<2 {
                        group.addTask { _ = try await api.articles(page: page, delay: .milliseconds(400)) }
                    }
                }
                try await group.waitForAll()
            }
            let stats = try await APIClient(baseURL: base, transport: transport) { $0.envelope = .successFlag }
                .send(APIRequest<Stats>.get("/envelope/stats"))
            // What the server saw; a replay reads back the recorded figure, which proves nothing.
            if backend == .demoServer { #expect(stats.maxInFlight == 2) }
        }
    }
}
