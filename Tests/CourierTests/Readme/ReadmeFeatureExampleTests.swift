import Courier
import Foundation
import Testing

/// Runs the feature examples of `ReadmeFeatureExamples` (shown in the DocC articles) against the demo server.
@Suite(.timeLimit(.minutes(1))) struct ReadmeFeatureExampleTests {
    typealias Examples = ReadmeFeatureExamples

    @Test func paginationStopsAfterFiftyItems() async throws {
        try await TestServers.withFreshTestServer { base in
            let repositories = try await Examples.firstFifty(APIClient(baseURL: base))
            #expect(repositories.count == 50)
        }
    }

    @Test func envelopeFailuresAreLogicalErrors() async throws {
        let error = await #expect(throws: APIError.self) {
            try await Examples.articles(baseURL: try await TestServers.testServerURL(), token: "not-a-token")
        }
        #expect(error?.kind == .logicalError)
        #expect(error?.errorBody(as: SuccessFlagEnvelope.ErrorInfo.self)?.errorCode == 1002)
    }

    @Test func xmlAndHooksAndMultipartAndDownloads() async throws {
        let base = try await TestServers.testServerURL()
        let client = APIClient(baseURL: base)
        #expect(try await client.send(Examples.CreateUser(user: .init(login: "ada", id: 3))).login == "ada")
        #expect(try await client.send(Examples.SignedEcho()).count > 0)
        Examples.userLeftProfile(of: "nobody", client: client)

        let folder = FileManager.default.temporaryDirectory.appending(path: "courier-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appending(path: "photo.jpg")
        try Data(repeating: 7, count: 1000).write(to: photo)
        #expect(try await Examples.upload(photo, with: client).bytes > 1000)
        try await Examples.fetch("/testing/download/4096", to: folder.appending(path: "file.bin"), with: client)
        #expect(try Data(contentsOf: folder.appending(path: "file.bin")).count == 4096)
    }

    @Test func aMissingSecretSaysWhereItLooked() throws {
        let error = #expect(throws: SecretsError.self) {
            try Examples.shortenerClient(baseURL: URL(filePath: "/"))
        }
        #expect(error?.description.contains("environment variable COURIER_GOOGLE_API_KEY") == true)
    }
}
