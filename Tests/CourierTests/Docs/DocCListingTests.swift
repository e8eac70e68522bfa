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

/// Every Swift listing DocC shows, in the catalog's articles and in the `///` comments of Courier's and
/// CourierTesting's symbols, is a `// BEGIN DOCC: name` region (see ``doccRegionFolders``) or a README region,
/// which the package compiles, so a listing that does not compile cannot be in the docs.
@Suite struct DocCListingTests {
    typealias Region = (name: String, code: String)
    typealias Listing = (place: String, language: String, code: String)

    static let folder = URL(filePath: #filePath).deletingLastPathComponent()
    static let catalog = folder.appending(path: "../../../Sources/Courier/Courier.docc").standardized
    /// The modules whose symbol pages DocC builds from `///` comments.
    static let documentedSources = ["Courier", "CourierTesting"].map {
        folder.appending(path: "../../../Sources/\($0)").standardized
    }

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

    /// The Markdown of every `///` comment of a Swift file, one string per comment: each line without its
    /// leading whitespace, its `///` and the one space after it.
    static func docComments(in source: String) -> [String] {
        var comments: [String] = []
        var lines: [Substring] = []
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("///") {
                let text = trimmed.dropFirst(3)
                lines.append(text.first == " " ? text.dropFirst() : text)
            } else if !lines.isEmpty {
                comments.append(lines.joined(separator: "\n"))
                lines = []
            }
        }
        if !lines.isEmpty { comments.append(lines.joined(separator: "\n")) }
        return comments
    }

    static func files(in directory: URL, withSuffix suffix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.hasSuffix(suffix) }.sorted().map { directory.appending(path: $0) }
    }

    /// The folders whose Swift files (in subfolders too) hold DOCC regions: this one, Tests/CourierTests/Readme
    /// (the examples that moved from the README into articles, still run there), and the example clients.
    static let doccRegionFolders = [
        folder,
        folder.deletingLastPathComponent().appending(path: "Readme"),
        folder.appending(path: "../../../Sources/CourierExamples").standardized,
    ]

    /// The Swift files in `directory` and its subfolders.
    static func swiftFiles(under directory: URL) throws -> [URL] {
        try FileManager.default.subpathsOfDirectory(atPath: directory.path(percentEncoded: false))
            .filter { $0.hasSuffix(".swift") }.sorted().map { directory.appending(path: $0) }
    }

    /// The DOCC regions of ``doccRegionFolders`` and the README regions of Tests/CourierTests/Readme: an article
    /// or a comment may show a README example as it is, so one compiled copy serves both.
    static func regions() throws -> (docc: [Region], readme: [Region]) {
        var docc: [Region] = []
        for directory in doccRegionFolders {
            for url in try swiftFiles(under: directory) {
                docc += MarkedRegions.extract("DOCC", from: try String(contentsOf: url, encoding: .utf8))
            }
        }
        var readme: [Region] = []
        for url in try files(in: folder.deletingLastPathComponent().appending(path: "Readme"), withSuffix: ".swift") {
            readme += MarkedRegions.extract("README", from: try String(contentsOf: url, encoding: .utf8))
        }
        return (docc, readme)
    }

    /// The fenced code blocks of the catalog's articles.
    static func articleListings() throws -> [Listing] {
        try files(in: catalog, withSuffix: ".md").flatMap { article in
            codeBlocks(in: try String(contentsOf: article, encoding: .utf8)).map {
                (article.lastPathComponent, $0.language, $0.code)
            }
        }
    }

    /// The fenced code blocks of the `///` comments in Sources/Courier and Sources/CourierTesting, with any
    /// fence a comment leaves open reported as a listing of language "unclosed fence".
    static func symbolListings() throws -> [Listing] {
        var listings: [Listing] = []
        for module in documentedSources {
            let paths = FileManager.default.enumerator(atPath: module.path(percentEncoded: false))?
                .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
            for path in paths ?? [] {
                let place = "\(module.lastPathComponent)/\(path)"
                let source = try String(contentsOf: module.appending(path: path), encoding: .utf8)
                for comment in docComments(in: source) {
                    let fences = comment.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("```") }
                    if fences.count % 2 != 0 { listings.append((place, "unclosed fence", comment)) }
                    listings += codeBlocks(in: comment).map { (place, $0.language, $0.code) }
                }
            }
        }
        return listings
    }

    /// Expects every Swift listing to be a region, and every listing to name its language.
    static func expectCompiled(_ listings: [Listing], regions: [Region]) {
        for listing in listings {
            let firstLine = listing.code.prefix { $0 != "\n" }
            #expect(
                !listing.language.isEmpty,
                "\(listing.place): a listing without a language (swift or text): \(firstLine)")
            #expect(
                listing.language != "unclosed fence", "\(listing.place): a comment leaves a fence open: \(firstLine)")
            guard listing.language == "swift" else { continue }
            #expect(
                regions.contains { $0.code == listing.code },
                "\(listing.place) shows a listing that no DOCC or README region compiles: \(firstLine)"
            )
        }
    }

    @Test func everyListingInTheCatalogIsCompiled() throws {
        let regions = try Self.regions()
        #expect(
            try Self.files(in: Self.catalog, withSuffix: ".md").count >= 18,
            "found too few articles in \(Self.catalog.path())")
        Self.expectCompiled(try Self.articleListings(), regions: regions.docc + regions.readme)
    }

    @Test func everyListingInSymbolCommentsIsCompiled() throws {
        let regions = try Self.regions()
        let listings = try Self.symbolListings()
        #expect(listings.count >= 35, "found only \(listings.count) listings in `///` comments")
        Self.expectCompiled(listings, regions: regions.docc + regions.readme)
    }

    @Test func everyDOCCRegionIsShown() throws {
        let shown = Set(
            try (Self.articleListings() + Self.symbolListings()).filter { $0.language == "swift" }.map(\.code))
        let regions = try Self.regions().docc
        for region in regions {
            let isShown = shown.contains(region.code)
            #expect(isShown, "no article or `///` comment shows the DOCC region \"\(region.name)\" verbatim")
        }
        #expect(regions.count >= 50)
    }
}
