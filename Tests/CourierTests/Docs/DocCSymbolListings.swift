import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Logging
import Testing

#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
#endif

/// The listings of the `///` comments in Sources/Courier and Sources/CourierTesting, which DocC shows on symbol
/// pages, compiled. `DocCListingTests` checks that every one of them is a DOCC or README region. Listings that
/// an article shows as well are compiled once, in the article's file (`ResponseEnvelope`, `Secrets`, `Route`,
/// `APIClient.cancelAll`, `MockTransport.Stub`).
enum SymbolListingTypes {
    typealias User = GettingStartedListings.User
    typealias GetUser = GettingStartedListings.GetUser
    typealias GitHubError = HandlingErrorsListings.GitHubError
}

enum EndpointSymbolListings {
    typealias User = SymbolListingTypes.User

    static func endpoint(client: APIClient) async throws -> String {
        // BEGIN DOCC: Endpoint
        struct GetUser: Endpoint {
            typealias Response = User  // any Decodable, or Void, Data, String
            let login: String
            var path: RoutePath { "/users/\(login)" }
        }
        let user = try await client.send(GetUser(login: "octocat"))
        // END DOCC: Endpoint
        return user.login
    }
}

enum RoutePathSymbolListings {
    static func reposPath(login: String) -> RoutePath {
        // BEGIN DOCC: RoutePath
        let path: RoutePath = "/users/\(login)/repos"  // login "a/b c" → /users/a%2Fb%20c/repos
        // END DOCC: RoutePath
        return path
    }

    static func escapeHatches(repository: String, tag: String, key: String, uploadURL: URL) -> [RoutePath] {
        // BEGIN DOCC: RoutePath escape hatches
        let manifest: RoutePath = "/v2/\(raw: repository)/manifests/\(tag)"  // "library/swift": its "/" stays
        let object = RoutePath(segments: ["photos", "2024", key])  // each segment encoded
        let upload = RoutePath.url(uploadURL)  // an absolute URL, on an origin the client allows
        // END DOCC: RoutePath escape hatches
        return [manifest, object, upload]
    }
}

enum AcceptableStatusesSymbolListings {
    // BEGIN DOCC: AcceptableStatuses
    struct GetFeed: Endpoint {
        typealias Response = Data
        var path: RoutePath { "/feed" }
        var acceptableStatuses: AcceptableStatuses? { [200..<300, 304..<305] }  // 304 Not Modified too
    }
    // END DOCC: AcceptableStatuses
}

enum OriginSymbolListings {
    static func client(apiURL: URL) -> APIClient {
        // BEGIN DOCC: Origin
        let client = APIClient(baseURL: apiURL) { $0.allowedOrigins = ["https://uploads.example.com"] }
        // END DOCC: Origin
        return client
    }
}

enum APIRequestSymbolListings {
    typealias User = SymbolListingTypes.User
    struct Token: Decodable, Sendable { let token: String }

    static func oneOff(client: APIClient, email: String, password: String) async throws -> (User, Token) {
        // BEGIN DOCC: APIRequest
        let user = try await client.send(APIRequest<User>.get("/users/octocat"))
        try await client.send(APIRequest<Void>.delete("/repos/me/old"))
        let login = APIRequest<Token>.post("/auth/local", body: .form(["email": email, "password": password]))
        let token = try await client.send(login)
        // END DOCC: APIRequest
        return (user, token)
    }
}

enum CancellationSymbolListings {
    typealias User = SymbolListingTypes.User

    static func cancel(client: APIClient) {
        // BEGIN DOCC: CancellableByType
        struct GetUser: Endpoint, CancellableByType {
            typealias Response = User
            let login: String
            var path: RoutePath { "/users/\(login)" }
        }
        client.cancelAll(GetUser.self) { $0.login == "octocat" }
        // END DOCC: CancellableByType
    }
}

enum PaginationSymbolListings {
    struct Repository: Decodable, Sendable { let name: String }
    struct SearchResults: Decodable, Sendable { let items: [Repository] }
    struct Article: Decodable, Sendable { let title: String }
    struct ArticlePage: Decodable, Sendable {
        let articles: [Article]
        let page: Int
        let totalPages: Int
    }

    // BEGIN DOCC: PaginatedEndpoint
    struct SearchRepositories: PaginatedEndpoint {  // Link headers, as GitHub sends them
        typealias Response = SearchResults
        let q: String
        var path: RoutePath { "/search/repositories" }
        var query: Query { ["q": q] }
        func items(in page: SearchResults) -> [Repository] { page.items }
        func nextPage(after page: APIResponse<SearchResults>) -> NextPage<Self>? { .followingLink(in: page) }
    }

    struct Articles: PaginatedEndpoint {  // page numbers
        typealias Response = ArticlePage
        var page = 1
        var path: RoutePath { "/articles" }
        var query: Query { ["page": page] }
        func items(in page: ArticlePage) -> [Article] { page.articles }
        func nextPage(after page: APIResponse<ArticlePage>) -> NextPage<Self>? {
            page.value.page < page.value.totalPages ? .endpoint(Articles(page: self.page + 1)) : nil
        }
    }
    // END DOCC: PaginatedEndpoint

    static func firstThirty(client: APIClient) async throws {
        // BEGIN DOCC: APIClient.items
        for try await repository in client.items(SearchRepositories(q: "swift")).prefix(30) {
            print(repository.name)
        }
        // END DOCC: APIClient.items
    }
}

enum CredentialMiddlewareSymbolListings {
    static func clients(url: URL, key: String, token: String, password: String) -> [APIClient] {
        // BEGIN DOCC: CredentialMiddleware
        let flickr = APIClient(baseURL: url, middlewares: [.apiKey(key, queryItem: "api_key")])
        let github = APIClient(baseURL: url, middlewares: [.bearerToken(token)])
        let basic = APIClient(baseURL: url, middlewares: [.basicAuth(username: "ada", password: password)])
        // END DOCC: CredentialMiddleware
        return [flickr, github, basic]
    }
}

enum TokenStoreSymbolListings {
    typealias RefreshToken = AuthenticationListings.RefreshToken

    static func client(url: URL, saved: AuthToken?, authClient: APIClient) -> APIClient {
        // BEGIN DOCC: TokenStore
        let tokens = TokenStore(token: saved) { expired in
            // Use a client WITHOUT the auth middleware, so the refresh never waits on itself.
            let fresh = try await authClient.send(RefreshToken(refreshToken: expired?.refreshToken ?? ""))
            return AuthToken(value: fresh.token, expiresAt: .now + fresh.expiresIn, refreshToken: fresh.refreshToken)
        }
        let client = APIClient(baseURL: url, middlewares: [.bearerToken(store: tokens)])
        // END DOCC: TokenStore
        return client
    }
}

enum RetrySymbolListings {
    static func retrying(url: URL) -> APIClient {
        // BEGIN DOCC: RetryMiddleware
        let client = APIClient(baseURL: url, middlewares: [.retry(.exponentialBackoff(maxAttempts: 4))])
        // END DOCC: RetryMiddleware
        return client
    }

    static func policy(url: URL) -> APIClient {
        // BEGIN DOCC: RetryPolicy
        let policy = RetryPolicy.exponentialBackoff(maxAttempts: 4, baseDelay: .milliseconds(200))
        let client = APIClient(baseURL: url, middlewares: [.retry(policy)])
        // END DOCC: RetryPolicy
        return client
    }
}

enum ThrottleMiddlewareSymbolListings {
    static func throttled(url: URL) -> APIClient {
        // BEGIN DOCC: ThrottleMiddleware
        let client = APIClient(baseURL: url, middlewares: [.throttle(maxConcurrent: 4, perSecond: 10)])
        // END DOCC: ThrottleMiddleware
        return client
    }
}

enum LoggingMiddlewareSymbolListings {
    static func logging(url: URL) -> APIClient {
        // BEGIN DOCC: LoggingMiddleware
        let client = APIClient(baseURL: url, middlewares: [.logging(Logger(label: "api"), logsCURL: true), .retry()])
        // END DOCC: LoggingMiddleware
        return client
    }
}

enum CURLDescriptionSymbolListings {
    typealias GetUser = SymbolListingTypes.GetUser

    static func request(_ request: HTTPRequest, client: APIClient) -> String {
        // BEGIN DOCC: HTTPRequest.cURLDescription
        let curl = request.cURLDescription(baseURL: client.baseURL, body: Data(#"{"a":1}"#.utf8))
        // curl -X POST 'https://api.example.com/items?key=<redacted>' -H 'Content-Type: application/json' --data-binary '{"a":1}'
        // END DOCC: HTTPRequest.cURLDescription
        return curl
    }

    static func client(_ client: APIClient) async throws -> String {
        // BEGIN DOCC: APIClient.cURLDescription
        let curl = try await client.cURLDescription(for: GetUser(login: "octocat"))
        // curl -X GET 'https://api.example.com/users/octocat?key=<redacted>' -H 'User-Agent: Courier/…'
        // END DOCC: APIClient.cURLDescription
        return curl
    }
}

enum APIErrorSymbolListings {
    typealias GetUser = SymbolListingTypes.GetUser
    typealias GitHubError = SymbolListingTypes.GitHubError

    static func handle(client: APIClient) async {
        // BEGIN DOCC: APIError
        do {
            _ = try await client.send(GetUser(login: "nobody"))
        } catch let error where error.kind == .apiError {
            print(error.errorBody(as: GitHubError.self)?.message ?? "")  // "Not Found"
        } catch {
            print(error)  // a network failure, a timeout, a body that did not decode, …
        }
        // END DOCC: APIError
    }
}

enum RedactionSymbolListings {
    static func client(url: URL) -> APIClient {
        // BEGIN DOCC: Redaction
        let client = APIClient(baseURL: url) {
            $0.redaction.queryNames.insert("session")
            if let session = HTTPField.Name("X-Session") { $0.redaction.headerNames.insert(session) }
        }
        // END DOCC: Redaction
        return client
    }
}

enum APIClientSymbolListings {
    typealias User = SymbolListingTypes.User
    typealias GetUser = SymbolListingTypes.GetUser
    typealias GitHubError = SymbolListingTypes.GitHubError
    typealias Shortener = DescribingEndpointsListings.Shortener
    typealias ShortURL = DescribingEndpointsListings.ShortURL

    static func send(githubURL: URL) async throws -> User {
        // BEGIN DOCC: APIClient
        let client = APIClient(baseURL: githubURL) {
            $0.errorBody = GitHubError.self
            $0.defaultHeaders[.accept] = "application/vnd.github+json"
        }
        let user = try await client.send(GetUser(login: "octocat"))
        // END DOCC: APIClient
        return user
    }

    static func response(client: APIClient) async throws {
        // BEGIN DOCC: APIResponse
        let response = try await client.response(GetUser(login: "octocat"))
        print(response.value.login, response.status.code, response.headerFields[.eTag] ?? "")
        // END DOCC: APIResponse
    }

    static func route(url: String, client: APIClient) async throws -> ShortURL {
        // BEGIN DOCC: APIClient.send(_:as:)
        let short = try await client.send(Shortener.shorten(longURL: url), as: ShortURL.self)
        // END DOCC: APIClient.send(_:as:)
        return short
    }

    static func show(_ user: User) { print(user.login) }
    static func show(_ error: APIError) { print(error) }

    static func completion(client: APIClient) {
        // BEGIN DOCC: APIClient.send(_:completion:)
        let handle = client.send(GetUser(login: "octocat")) { result in
            switch result {
            case .success(let user): show(user)
            case .failure(let error): show(error)
            }
        }
        handle.cancel()  // the completion then receives an error of kind `.cancelled`
        // END DOCC: APIClient.send(_:completion:)
    }
}

enum DownloadSymbolListings {
    static func download(client: APIClient, url: URL) async throws -> APIResponse<URL> {
        // BEGIN DOCC: APIClient.download
        let file = try await client.download(APIRequest<Void>.get("/exports/2026.csv"), to: url) { progress in
            print(progress.completedBytes, progress.totalBytes ?? -1)
        }
        // END DOCC: APIClient.download
        return file
    }

    static func resume(_ file: APIRequest<Void>, to destination: URL, client: APIClient) async throws {
        // BEGIN DOCC: DownloadResumeData
        do {
            _ = try await client.download(file, to: destination)
        } catch {  // an APIError
            guard let resume = error.resumeData else { throw error }
            _ = try await client.download(file, to: destination, resumingFrom: resume)
        }
        // END DOCC: DownloadResumeData
    }
}

enum EventsSymbolListings {
    static func stream(client: APIClient) async throws {
        // BEGIN DOCC: APIClient.events
        for try await event in client.events(APIRequest<Void>.get("/v1/stream")) {
            print(event.type, event.data)
        }
        // END DOCC: APIClient.events
    }

    static func idleTimeout(client: APIClient) async throws {
        // BEGIN DOCC: Streaming.idleTimeout
        let chat = APIRequest<Void>.post("/v1/chat", body: .json(["prompt": "Hello"]))
        for try await token in client.events(chat, idleTimeout: .seconds(30)) {
            print(token.data, terminator: "")
        }
        // END DOCC: Streaming.idleTimeout
    }

    static func reconnecting(client: APIClient) async throws {
        // BEGIN DOCC: Streaming.reconnecting
        /// A live feed: reconnect quickly and keep trying for longer; after the server ends it, connect again.
        let feed = ReconnectPolicy(
            maxReconnects: 20, delay: .milliseconds(500), maxDelay: .seconds(30), reconnectsAfterEnd: true)
        for try await event in client.events(APIRequest<Void>.get("/v1/feed"), reconnecting: feed) {
            print(event.data)
        }

        /// A one-off stream, such as a model's answer: a drop ends it with its error.
        let answer = APIRequest<Void>.post("/v1/chat", body: .json(["prompt": "Hello"]))
        for try await token in client.events(answer, reconnecting: .never) {
            print(token.data, terminator: "")
        }
        // END DOCC: Streaming.reconnecting
    }

    struct LogLine: Decodable, Sendable { let message: String }

    static func records(client: APIClient) async throws {
        // BEGIN DOCC: APIClient.records
        for try await line in client.records(APIRequest<LogLine>.get("/v1/logs")) {
            print(line.message)
        }
        // END DOCC: APIClient.records
    }
}

enum HTTPCacheSymbolListings {
    static func client(url: URL) -> APIClient {
        // BEGIN DOCC: HTTPCache
        let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 50 * 1024 * 1024))
        let client = APIClient(baseURL: url) { $0.cache = cache }
        // END DOCC: HTTPCache
        return client
    }
}

enum CookieJarSymbolListings {
    static func client(url: URL) -> APIClient {
        // BEGIN DOCC: CookieJar
        let jar = CookieJar()
        let client = APIClient(baseURL: url) { $0.cookieJar = jar }
        // END DOCC: CookieJar
        return client
    }
}

#if canImport(AsyncHTTPClient)
    enum HTTPClientTransportSymbolListings {
        static func client(url: URL, myHTTPClient: HTTPClient) -> APIClient {
            // BEGIN DOCC: HTTPClientTransport
            let transport = HTTPClientTransport(client: myHTTPClient)  // one you own and shut down
            let client = APIClient(baseURL: url, transport: transport)
            // END DOCC: HTTPClientTransport
            return client
        }
    }
#endif

enum EncodingSymbolListings {
    enum Sort: String, QueryValueConvertible {
        case stars
        case updated
    }
    struct NewIssue: Encodable, Sendable { let title: String }
    struct Upload: Decodable, Sendable { let id: String }

    static func query(searchText: String) -> Query {
        // BEGIN DOCC: Query
        let query: Query = ["q": searchText, "per_page": 20, "sort": Sort.stars]  // Sort: QueryValueConvertible
        // END DOCC: Query
        return query
    }

    static func encodedQuery() throws -> Query {
        // BEGIN DOCC: QueryEncoder
        struct Search: Encodable {
            let q: String
            let page: Int
            let tags: [String]
        }
        let query = try QueryEncoder().encode(Search(q: "swift", page: 2, tags: ["a", "b"]))
        // END DOCC: QueryEncoder
        return query
    }

    static func bodies(title: String, email: String, password: String) -> [RequestBody] {
        // BEGIN DOCC: RequestBody
        let issue: RequestBody = .json(NewIssue(title: title))
        let login: RequestBody = .form(["email": email, "password": password])
        // END DOCC: RequestBody
        return [issue, login]
    }

    static func progress(form: MultipartFormData) -> RequestBody {
        // BEGIN DOCC: RequestBody.reportingProgress
        let body = RequestBody.multipart(form).reportingProgress { print($0.fractionCompleted ?? 0) }
        // END DOCC: RequestBody.reportingProgress
        return body
    }

    static func upload(videoURL: URL, client: APIClient) async throws -> Upload {
        // BEGIN DOCC: MultipartFormData
        var form = MultipartFormData()
        form.append("Ada", name: "author")
        try form.appendFile(at: videoURL, name: "video", contentType: "video/mp4")  // streamed, never loaded
        let response = try await client.send(APIRequest<Upload>.post("/uploads", body: .multipart(form)))
        // END DOCC: MultipartFormData
        return response
    }
}

enum MockTransportSymbolListings {
    typealias GetUser = SymbolListingTypes.GetUser

    static func mock(url: URL) async throws {
        // BEGIN DOCC: MockTransport
        let mock = MockTransport(stubs: [
            .init(.get, "/users/octocat", json: #"{"login":"octocat","id":1}"#),
            .init(.get, "/users/nobody", status: .notFound, json: #"{"message":"Not Found"}"#),
        ])
        let client = APIClient(baseURL: url, transport: mock)
        _ = try await client.send(GetUser(login: "octocat"))
        #expect(mock.requests.map(\.path) == ["/users/octocat"])
        // END DOCC: MockTransport
    }
}

/// Runs the symbol listings whose comments state a result, so the comments stay true.
@Suite struct DocCSymbolListingTests {
    @Test func routePathsEncodeAsTheCommentsSay() throws {
        #expect(RoutePathSymbolListings.reposPath(login: "a/b c").description == "/users/a%2Fb%20c/repos")
        let upload = try #require(URL(string: "https://uploads.example.com/u/1"))
        let paths = RoutePathSymbolListings.escapeHatches(
            repository: "library/swift", tag: "6.0", key: "a b.jpg", uploadURL: upload)
        #expect(paths.map(\.description).prefix(2) == ["/v2/library/swift/manifests/6.0", "/photos/2024/a%20b.jpg"])
    }

    @Test func mockTransportListingRuns() async throws {
        try await MockTransportSymbolListings.mock(url: try #require(URL(string: "https://api.example.com")))
    }

    @Test func cURLDescriptionsAreTheCommentsOnes() async throws {
        let url = try #require(URL(string: "https://api.example.com"))
        let client = APIClient(baseURL: url, transport: MockTransport(stubs: [])) {
            $0.defaultQuery["key"] = "s3cret"
        }
        let request = HTTPRequest(
            method: .post, scheme: nil, authority: nil, path: "/items?key=s3cret",
            headerFields: [.contentType: "application/json"])
        let expected = "curl -X POST 'https://api.example.com/items?key=<redacted>' -H 'Content-Type: application/json'"
        #expect(
            CURLDescriptionSymbolListings.request(request, client: client) == expected + #" --data-binary '{"a":1}'"#)
        let curl = try await CURLDescriptionSymbolListings.client(client)
        #expect(
            curl.hasPrefix(
                "curl -X GET 'https://api.example.com/users/octocat?key=<redacted>' -H 'User-Agent: Courier/"))
    }

    @Test func queryEncoderKeepsTheOrderOfKeys() throws {
        let query = try EncodingSymbolListings.encodedQuery()
        #expect(query.parameters.map(\.name) == ["q", "page", "tags"])
    }
}

enum RedirectPolicySymbolListings {
    static func policies(url: URL) -> (APIClient, APIRequest<Void>) {
        // BEGIN DOCC: RedirectPolicy
        let client = APIClient(baseURL: url) { $0.redirectPolicy = .limit(3) }
        let probe = APIRequest<Void>.get("/short/abc").redirectPolicy(.never)
        // END DOCC: RedirectPolicy
        return (client, probe)
    }
}
