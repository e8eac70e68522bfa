import Courier
import Foundation
import HTTPTypes
import Testing

/// The README's first example, verbatim inside `Readme`, compiled and run against the demo server.
enum Readme {
    // BEGIN README EXAMPLE
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
    // END README EXAMPLE
}

@Suite(.timeLimit(.minutes(1))) struct ReadmeExampleTests {
    @Test func firstExampleRunsAgainstTheDemoServer() async throws {
        let user = try await Readme.showUser("octocat", baseURL: try await TestServers.demoURL())
        #expect(user.login == "octocat")
        let error = await #expect(throws: APIError.self) {
            try await Readme.showUser("no/body", baseURL: try await TestServers.demoURL())
        }
        #expect(error?.kind == .apiError)
        #expect(error?.errorBody(as: Readme.GitHubError.self)?.message == "Not Found")
        #expect(error?.url?.hasSuffix("/users/no%2Fbody") == true)
    }

    /// The README shows the example's code; this fails when the two drift apart.
    @Test func readmeShowsTheCompiledExample() throws {
        let here = URL(filePath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let start = try #require(source.range(of: "    // BEGIN README EXAMPLE\n"))
        let end = try #require(source.range(of: "    // END README EXAMPLE"))
        let example = source[start.upperBound..<end.lowerBound]
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : String($0) }
            .joined(separator: "\n")
            .replacingOccurrences(of: "static func", with: "func")
        #expect(readme.contains(example), "README.md's first example differs from ReadmeExampleTests.swift")
    }
}
