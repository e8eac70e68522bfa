import CoreMetrics
import Courier
import CourierExamples
import CourierTesting
import Foundation
import HTTPTypes
import Tracing
import XMLCoder

/// Examples that moved from the README into the DocC articles, compiled: each `DOCC` region is a listing an
/// article shows (`DocCListingTests` checks that every Swift listing is a region), and
/// `ReadmeFeatureExampleTests` runs them, with the cancellation, multipart and download examples beside them.
enum ReadmeFeatureExamples {
    struct Repository: Decodable, Sendable { let full_name: String }
    struct SearchResults: Decodable, Sendable { let items: [Repository] }

    // BEGIN DOCC: pagination
    struct SearchRepositories: PaginatedEndpoint {
        typealias Response = SearchResults
        let q: String
        var path: RoutePath { "/search/repositories" }
        var query: Query { ["q": q, "per_page": 20] }
        func items(in page: SearchResults) -> [Repository] { page.items }
        func nextPage(after page: APIResponse<SearchResults>) -> NextPage<Self>? { .followingLink(in: page) }
    }

    static func firstFifty(_ client: APIClient) async throws -> [Repository] {
        var repositories: [Repository] = []
        for try await repository in client.items(SearchRepositories(q: "swift")) {
            repositories.append(repository)
            if repositories.count == 50 { break }  // no further page is requested
        }
        return repositories
    }
    // END DOCC: pagination

    // BEGIN DOCC: envelope
    struct Article: Decodable, Sendable { let id: Int }

    static func articles(baseURL: URL, token: String) async throws -> [Article] {
        let client = APIClient(baseURL: baseURL) { $0.envelope = .successFlag }  // {"success","error","response"}
        do {
            return try await client.send(
                APIRequest<[Article]>.get("/envelope/articles", headers: [.authorization: "Bearer \(token)"]))
        } catch {
            if let info = error.errorBody(as: SuccessFlagEnvelope.ErrorInfo.self) {  // kind == .logicalError
                print("the API said no:", info.errorMessage, info.errorCode ?? 0)
            }
            throw error
        }
    }
    // END DOCC: envelope

    struct GetRepository: Endpoint, CancellableByType {
        typealias Response = Repository
        let owner: String
        let name: String
        var path: RoutePath { "/repos/\(owner)/\(name)" }
    }

    static func userLeftProfile(of owner: String, client: APIClient) {
        client.cancelAll(GetRepository.self) { $0.owner == owner }  // other requests go on
    }

    // BEGIN DOCC: body formats
    struct XMLBody: RequestBodyEncoder {
        var contentType: String { "application/xml" }
        func encode<T: Encodable>(_ value: T) throws -> Data { try XMLEncoder().encode(value, withRootKey: "user") }
    }

    struct XMLReader: ResponseBodyDecoder {
        func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
            try XMLDecoder().decode(type, from: data)
        }
    }

    struct User: Codable, Sendable {
        let login: String
        let id: Int
    }

    struct CreateUser: Endpoint {
        typealias Response = User
        let user: User
        var method: HTTPRequest.Method { .post }
        var path: RoutePath { "/testing/xml/users" }
        var body: RequestBody { .encoded(user, using: XMLBody()) }
        var decoder: (any ResponseBodyDecoder)? { XMLReader() }
    }
    // END DOCC: body formats

    // BEGIN DOCC: hooks
    struct SignedEcho: Endpoint {
        typealias Response = Data
        var path: RoutePath { "/echo/signed" }
        func prepare(_ request: inout HTTPRequest) throws {  // after Courier built it, before middleware
            request.headerFields[.authorization] = "Signature \(request.method.rawValue) \(request.path ?? "")"
        }
        func inspect(_ response: HTTPResponse, body: Data) throws {  // before decoding; throw to reject
            if response.headerFields[.contentType] == nil { throw URLError(.badServerResponse) }
        }
    }
    // END DOCC: hooks

    struct UploadReceipt: Decodable, Sendable { let bytes: Int }

    static func upload(_ photo: URL, with client: APIClient) async throws -> UploadReceipt {
        var form = MultipartFormData()
        form.append("holidays", name: "album")
        try form.appendFile(at: photo, name: "photo", contentType: "image/jpeg")  // streamed from disk
        let body = RequestBody.multipart(form).reportingProgress { progress in
            print("sent \(progress.completedBytes) of \(progress.totalBytes ?? 0) bytes")
        }
        return try await client.send(APIRequest<UploadReceipt>.post("/testing/upload", body: body))
    }

    static func fetch(_ path: RoutePath, to destination: URL, with client: APIClient) async throws {
        var resume: DownloadResumeData?
        for attempt in 1...3 {
            do {
                _ = try await client.download(APIRequest<Void>.get(path), to: destination, resumingFrom: resume)
                return
            } catch {
                guard attempt < 3, let partial = error.resumeData else { throw error }
                resume = partial  // go on where it stopped, with Range and If-Range
            }
        }
    }

    // BEGIN DOCC: server-sent events
    struct Token: Decodable, Sendable { let text: String }

    static func printTokens(of prompt: String, with client: APIClient) async throws {
        let request = APIRequest<Void>.post("/v1/chat", body: .json(["prompt": prompt]))
        for try await event in client.events(request) where event.type == "token" {
            print(try event.decode(Token.self).text, terminator: "")
        }
    }
    // END DOCC: server-sent events

    // BEGIN DOCC: observability
    /// At start-up, once: any swift-metrics backend (Prometheus, StatsD, OpenTelemetry) and any
    /// swift-distributed-tracing tracer (swift-otel). Every client reports to them.
    static func bootstrap(metrics: any MetricsFactory, tracer: any Tracer) {
        MetricsSystem.bootstrap(metrics)
        InstrumentationSystem.bootstrap(tracer)
    }

    /// A client whose own calls must not be observed, such as the one an exporter sends with.
    static func exporterClient(collector: URL) -> APIClient {
        APIClient(baseURL: collector) { $0.reportsMetricsAndTraces = false }
    }
    // END DOCC: observability

    // BEGIN DOCC: cassette
    /// Records the first run (`COURIER_CASSETTES=record`), replays it after: no server needed.
    static func octocat(base: URL, cassettes: URL) async throws -> GitHubUser {
        try await withCassette("octocat", in: cassettes, recordingThrough: DefaultTransport.make()) { cassette in
            let github = GitHubClient(baseURL: base, transport: cassette)
            return try await github.user("octocat").user
        }
    }
    // END DOCC: cassette

    static func missed(client: APIClient) async throws {
        // BEGIN DOCC: cassette miss
        do {
            _ = try await client.send(APIRequest<Data>.get("/users/octocot"))
        } catch let error where error.underlyingError is CassetteMiss {
            print(error)  // GET …/users/octocot failed — transport failed: the cassette has no recorded exchange for …
        }
        // END DOCC: cassette miss
    }

    // BEGIN DOCC: json lines
    struct BuildLog: Decodable, Sendable {
        let step: String
        let message: String
    }

    static func follow(build id: Int, with client: APIClient) async throws {
        let logs = APIRequest<BuildLog>.get("/v1/builds/\(id)/logs")
        for try await line in client.records(logs, format: .jsonLines, idleTimeout: .seconds(60)) {
            print("[\(line.step)] \(line.message)")
        }
    }
    // END DOCC: json lines

    // BEGIN DOCC: http cache
    static func cachedClient(baseURL: URL, cachesDirectory: URL) throws -> APIClient {
        let cache = HTTPCache(store: try DiskCacheStore(directory: cachesDirectory.appending(path: "api")))
        return APIClient(baseURL: baseURL) { $0.cache = cache }
    }

    static func profile(_ login: String, with client: APIClient) async throws -> String {
        let response = try await client.response(APIRequest<[String: String]>.get("/users/\(login)"))
        switch response.cacheStatus {
        case .cached: return "from the cache"
        case .revalidated: return "from the cache, confirmed by a 304"
        case .network: return "from the network"
        }
    }
    // END DOCC: http cache

    // BEGIN DOCC: coalescing
    static func refreshAll(_ logins: [String], baseURL: URL) async throws -> [String: Int] {
        let client = APIClient(baseURL: baseURL) { $0.coalescesRequests = true }
        // However many callers ask for the same user at once, one request goes out.
        return try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for login in logins {
                group.addTask {
                    (login, try await client.send(APIRequest<[String: Int]>.get("/users/\(login)"))["id"] ?? 0)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }
    // END DOCC: coalescing

    // BEGIN DOCC: cookies
    static func signedIn(baseURL: URL, jar: CookieJar) async throws -> APIClient {
        let client = APIClient(baseURL: baseURL) { $0.cookieJar = jar }
        // The answer's Set-Cookie goes into the jar; every later request to this host carries it.
        try await client.send(APIRequest<Void>.post("/login", body: .form(["user": "ada", "password": "…"])))
        return client
    }
    // END DOCC: cookies

    static func shortenerClient(baseURL: URL) throws -> APIClient {
        let secrets = Secrets([
            .environment(prefix: "COURIER_"),  // COURIER_GOOGLE_API_KEY
            .jsonFile(URL(filePath: "secrets.json")),
            .propertyList(URL(filePath: "Secrets.plist")),
        ])
        let key = try secrets["GOOGLE_API_KEY"]  // a SecretsError names every place it looked
        return APIClient(baseURL: baseURL) { $0.defaultQuery["key"] = .string(key.value) }
    }
}
