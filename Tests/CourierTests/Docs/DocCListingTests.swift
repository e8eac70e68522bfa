import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
#endif

/// The listings of the DocC articles Testing and Transports and Linux, compiled and run.
@Suite struct DocCTestingListings {
    typealias User = GettingStartedListings.User
    typealias GetUser = GettingStartedListings.GetUser

    // swift-format-ignore: NeverForceUnwrap
    @Test func mockTransportAnswersFromStubs() async throws {
        // BEGIN DOCC: mock transport
        let mock = MockTransport(stubs: [
            .init(.get, "/users/octocat", json: #"{"login":"octocat","id":1}"#),
            .init(.get, "/users/nobody", status: .notFound, json: #"{"message":"Not Found"}"#),
        ])
        let client = APIClient(baseURL: URL(string: "https://api.example.com")!, transport: mock)
        let user = try await client.send(GetUser(login: "octocat"))
        #expect(user.login == "octocat")
        #expect(mock.requests.map(\.path) == ["/users/octocat"])
        // END DOCC: mock transport
    }

    @Test func stubsMatchQueryAndHeaders() async throws {
        let secondPage = #"[{"login":"ada","id":2}]"#
        // BEGIN DOCC: matching stubs
        let mock = MockTransport(stubs: [
            MockTransport.Stub(.get, "/search", json: secondPage).matching(query: ["page": "2"]),
            MockTransport.Stub(.get, "/me", status: .unauthorized).matching(headers: [.authorization: "Bearer old"]),
        ])
        // END DOCC: matching stubs
        let client = APIClient(baseURL: try #require(URL(string: "https://api.example.com")), transport: mock)
        let users = try await client.send(APIRequest<[User]>.get("/search", query: ["q": "a", "page": 2]))
        #expect(users.map(\.login) == ["ada"])
        let error = await #expect(throws: APIError.self) {
            try await client.send(APIRequest<Void>.get("/me", headers: [.authorization: "Bearer old"]))
        }
        #expect(error?.status == .unauthorized)
    }

    #if canImport(AsyncHTTPClient)
        static func customTransport(url: URL, myHTTPClient: HTTPClient) -> APIClient {
            // BEGIN DOCC: custom transport
            let client = APIClient(baseURL: url, transport: HTTPClientTransport(client: myHTTPClient))
            // END DOCC: custom transport
            return client
        }
    #endif
}

/// Every Swift listing in the DocC catalog is a `// BEGIN DOCC: name` region of this folder, which the test
/// target compiles, so a listing that does not compile cannot be in the docs.
@Suite struct DocCListingTests {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent()
    static let catalog = folder.appending(path: "../../../Sources/Courier/Courier.docc").standardized

    /// The fenced code blocks of a Markdown file: their language (empty when none) and text, de-indented to
    /// the fence's column.
    static func codeBlocks(in markdown: String) -> [(language: String, code: String)] {
        var blocks: [(String, String)] = []
        var current: (language: String, lines: [Substring], indent: Int)?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if let block = current {
                if trimmed == "```" {
                    blocks.append((block.language, block.lines.joined(separator: "\n")))
                    current = nil
                } else {
                    current?.lines.append(line.dropFirst(min(block.indent, line.prefix { $0 == " " }.count)))
                }
            } else if trimmed.hasPrefix("```") {
                current = (String(trimmed.dropFirst(3)), [], line.count - trimmed.count)
            }
        }
        return blocks
    }

    static func files(in directory: URL, withSuffix suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.hasSuffix(suffix) }.sorted().map { directory.appending(path: $0) }
    }

    @Test func everyListingInTheCatalogIsCompiled() throws {
        var regions: [(name: String, code: String)] = []
        for url in try Self.files(in: Self.folder, withSuffix: ".swift") {
            regions += MarkedRegions.extract("DOCC", from: try String(contentsOf: url, encoding: .utf8))
        }
        // An article may show a README example as it is: one compiled copy serves both.
        let readmeFolder = Self.folder.deletingLastPathComponent().appending(path: "Readme")
        var readmeRegions: [(name: String, code: String)] = []
        for url in try Self.files(in: readmeFolder, withSuffix: ".swift") {
            readmeRegions += MarkedRegions.extract("README", from: try String(contentsOf: url, encoding: .utf8))
        }
        var shown: Set<String> = []
        let articles = try Self.files(in: Self.catalog, withSuffix: ".md")
        #expect(articles.count >= 18, "found only \(articles.count) articles in \(Self.catalog.path())")
        for article in articles {
            let name = article.lastPathComponent
            for block in Self.codeBlocks(in: try String(contentsOf: article, encoding: .utf8)) {
                let firstLine = block.code.prefix { $0 != "\n" }
                #expect(!block.language.isEmpty, "\(name): a listing without a language (swift or text): \(firstLine)")
                guard block.language == "swift" else { continue }
                shown.insert(block.code)
                #expect(
                    (regions + readmeRegions).contains { $0.code == block.code },
                    "\(name) shows a listing that no DOCC or README region in Tests/CourierTests compiles: \(firstLine)"
                )
            }
        }
        for region in regions {
            let isShown = shown.contains(region.code)
            #expect(isShown, "no article shows the DOCC region \"\(region.name)\" verbatim")
        }
        #expect(regions.count >= 25)
    }
}
