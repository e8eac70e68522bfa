import Courier
import CourierTesting
import Foundation
import Testing

@testable import HTTPBinClient

/// The README's installation example, run against a real httpbin (`scripts/test` starts one and sets
/// `COURIER_HTTPBIN_URL`), and a check that a package depending on Courier resolves only the library's packages.
@Suite struct HTTPBinClientTests {
    static let httpbin = ProcessInfo.processInfo.environment["COURIER_HTTPBIN_URL"].flatMap(URL.init(string:))

    @Test(.enabled(if: httpbin != nil, "COURIER_HTTPBIN_URL is not set; run scripts/test"))
    func threeEndpointsAgainstHTTPBin() async throws {
        let baseURL = try #require(Self.httpbin)
        let client = makeHTTPBinClient(baseURL: baseURL, token: "t0ken")
        let found = try await client.send(Search(text: "swift & linux", page: 2))
        #expect(found.args == ["q": "swift & linux", "page": "2"])
        #expect(found.headers["User-Agent"]?.hasPrefix("Courier/") == true)
        let note = try await client.send(CreateNote(title: "first"))
        #expect(note.json == ["title": "first"])
        #expect(try await client.send(CheckToken()).authenticated)

        let anonymous = makeHTTPBinClient(baseURL: baseURL, token: nil)
        let error = await #expect(throws: APIError.self) { try await anonymous.send(CheckToken()) }
        #expect(error?.status == .unauthorized)
        #expect(error?.description.contains("GET \(baseURL.absoluteString)/bearer") == true)
    }

    /// The README's "Calling it" listing, run as written: the search comes back as sent, and the token check
    /// fails as its comment says.
    @Test(.enabled(if: httpbin != nil, "COURIER_HTTPBIN_URL is not set; run scripts/test"))
    func readmeCallsAgainstHTTPBin() async throws {
        let result = try await tryHTTPBin(baseURL: try #require(Self.httpbin))
        #expect(result.args == ["q": "swift & linux", "page": "2"])
        let printed = result.tokenError.map { "\($0.kind) \($0.status?.code ?? 0)" }
        #expect(printed == "unacceptable status 401", "the token check printed \(printed ?? "nothing: it succeeded")")
    }

    @Test func mockTransportFromCourierTesting() async throws {
        let mock = MockTransport(stubs: [
            .init(.get, "/get", json: #"{"args": {"q": "x", "page": "1"}, "headers": {}}"#)
        ])
        let client = APIClient(baseURL: try #require(URL(string: "https://httpbin.example")), transport: mock)
        #expect(try await client.send(Search(text: "x", page: 1)).args["q"] == "x")
        #expect(mock.requests.first?.query == "q=x&page=1")
    }

    /// Depending on Courier resolves the library's packages only: not the demo server's (Hummingbird,
    /// swift-service-lifecycle's users), the demo's command line (ArgumentParser), or the tests' (XMLCoder).
    @Test func onlyTheLibrarysPackagesAreResolved() throws {
        let package = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let resolved = try String(contentsOf: package.appending(path: "Package.resolved"), encoding: .utf8)
        for name in ["hummingbird", "swift-argument-parser", "xmlcoder"] {
            #expect(!resolved.lowercased().contains("\"identity\" : \"\(name)\""), "\(name) was resolved")
        }
        #expect(resolved.contains("\"identity\" : \"swift-http-types\""))
    }
}
