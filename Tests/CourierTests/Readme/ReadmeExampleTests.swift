import Courier
import Foundation
import HTTPTypes
import Testing

/// The README's former first example (GitHub's user endpoint with a decoded error body), compiled and run
/// against the demo server; GettingStarted.md now shows it in pieces, from DocCEssentialsListings.
enum Readme {
    struct User: Decodable, Sendable {
        let login: String
        let id: Int
    }
    struct GitHubError: Decodable, Sendable { let message: String }

    struct GetUser: Endpoint {
        typealias Response = User
        let login: String
        var path: RoutePath { "/users/\(login)" }  // a "/" in login cannot escape its segment
    }

    static func showUser(_ login: String, baseURL: URL) async throws -> User {
        let client = APIClient(baseURL: baseURL) {
            $0.errorBody = GitHubError.self  // decoded from 4xx/5xx bodies into APIError.errorBody
            $0.defaultHeaders[.accept] = "application/vnd.github+json"
        }
        return try await client.send(GetUser(login: login))  // throws APIError
    }
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeExampleTests {
    @Test func firstExampleRunsAgainstTheDemoServer() async throws {
        let user = try await Readme.showUser("octocat", baseURL: try await TestServers.testServerURL())
        #expect(user.login == "octocat")
        let error = await #expect(throws: APIError.self) {
            try await Readme.showUser("no/body", baseURL: try await TestServers.testServerURL())
        }
        #expect(error?.kind == .apiError)
        #expect(error?.errorBody(as: Readme.GitHubError.self)?.message == "Not Found")
        #expect(error?.url?.hasSuffix("/users/no%2Fbody") == true)
    }

    /// README.md shows every `README` region (the installation package's client and calls, and any in this
    /// folder or the example clients) verbatim; this fails when they drift.
    @Test func readmeShowsTheCompiledExamples() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent()
        let root = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        var checked = 0
        let examples = root.appending(path: "Sources/CourierExamples")
        let installation = root.appending(path: "IntegrationTests/Installation/Sources")
        let files = try [folder, examples, installation].flatMap { directory in
            try FileManager.default.subpathsOfDirectory(atPath: directory.path(percentEncoded: false))
                .filter { $0.hasSuffix(".swift") }.map { directory.appending(path: $0) }
        }
        for url in files {
            let file = url.lastPathComponent
            let source = try String(contentsOf: url, encoding: .utf8)
            for region in MarkedRegions.extract("README", from: source) {
                checked += 1
                #expect(
                    readme.contains(region.code), "README.md does not show \"\(region.name)\" from \(file) verbatim")
            }
        }
        #expect(checked >= 2, "found only \(checked) README regions: the installation client and its calls")
    }
}
