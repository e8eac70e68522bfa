import Courier
import Foundation
import HTTPTypes
import Testing

/// The README's first example, verbatim inside `Readme`, compiled and run against the demo server.
enum Readme {
    // BEGIN README: first client
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
    // END README: first client
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

    /// README.md shows every marked region of the files in this folder verbatim; this fails when they drift.
    @Test func readmeShowsTheCompiledExamples() throws {
        let folder = URL(filePath: #filePath).deletingLastPathComponent()
        let root = folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        var checked = 0
        let examples = root.appending(path: "Sources/CourierExamples")
        let files = try [folder, examples].flatMap { directory in
            try FileManager.default.subpathsOfDirectory(atPath: directory.path(percentEncoded: false))
                .filter { $0.hasSuffix(".swift") }.map { directory.appending(path: $0) }
        }
        for url in files {
            let file = url.lastPathComponent
            let source = try String(contentsOf: url, encoding: .utf8)
            for region in ReadmeRegions.extract(from: source) {
                checked += 1
                #expect(
                    readme.contains(region.code), "README.md does not show \"\(region.name)\" from \(file) verbatim")
            }
        }
        #expect(checked >= 15)
    }
}

/// Code between `// BEGIN README: name` and `// END README: name`, de-indented to column 0, with
/// `static` dropped (the README shows the code at top level).
enum ReadmeRegions {
    static func extract(from source: String) -> [(name: String, code: String)] {
        var regions: [(String, String)] = []
        var current: (name: String, lines: [Substring], indent: Int)?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("// BEGIN README: ") {
                current = (String(trimmed.dropFirst("// BEGIN README: ".count)), [], line.count - trimmed.count)
            } else if trimmed.hasPrefix("// END README: "), let region = current {
                let code = region.lines.map { $0.dropFirst(min(region.indent, $0.prefix { $0 == " " }.count)) }
                    .joined(separator: "\n")
                    .replacingOccurrences(of: "static func", with: "func")
                    .replacingOccurrences(of: "static let", with: "let")
                regions.append((region.name, code))
                current = nil
            } else if current != nil {
                current?.lines.append(line)
            }
        }
        return regions
    }
}
