import Courier
import Foundation
import HTTPTypes

/// The listings of the DocC articles Getting started, Describing endpoints and Handling errors, compiled.
/// `DocCListingTests` checks that every listing in the catalog is one of these regions.
enum GettingStartedListings {
    // BEGIN DOCC: getting started endpoint
    struct User: Decodable, Sendable {
        let login: String
        let id: Int
    }

    struct GetUser: Endpoint {
        typealias Response = User
        let login: String
        var path: RoutePath { "/users/\(login)" }  // a "/" in login cannot escape its segment
    }
    // END DOCC: getting started endpoint

    // swift-format-ignore: NeverForceUnwrap
    static func makeClientAndSend() async throws {
        // BEGIN DOCC: getting started send
        struct GitHubError: Decodable, Sendable { let message: String }

        let client = APIClient(baseURL: URL(string: "https://api.github.com")!) {
            $0.errorBody = GitHubError.self
            $0.defaultHeaders[.accept] = "application/vnd.github+json"
        }
        let user = try await client.send(GetUser(login: "octocat"))
        print(user.login, user.id)
        // END DOCC: getting started send
    }
}

enum DescribingEndpointsListings {
    struct Repository: Decodable, Sendable { let name: String }
    struct SearchResults: Decodable, Sendable { let items: [Repository] }
    struct User: Decodable, Sendable { let login: String }
    struct ShortURL: Decodable, Sendable { let id: String }

    // BEGIN DOCC: endpoint type
    struct SearchRepositories: Endpoint {
        typealias Response = SearchResults
        let q: String
        var path: RoutePath { "/search/repositories" }
        var query: Query { ["q": q, "per_page": 20] }
    }
    // END DOCC: endpoint type

    // BEGIN DOCC: router enum
    enum Shortener: Route {
        case shorten(longURL: String)
        case lookup(shortURL: String)

        var method: HTTPRequest.Method { if case .shorten = self { .post } else { .get } }
        var path: RoutePath { "/url" }
        var query: Query { if case .lookup(let url) = self { ["shortUrl": url] } else { [:] } }
        var body: RequestBody { if case .shorten(let url) = self { .json(["longUrl": url]) } else { .empty } }
    }

    static func shorten(_ longURL: String, with client: APIClient) async throws -> ShortURL {
        try await client.send(Shortener.shorten(longURL: longURL), as: ShortURL.self)
    }
    // END DOCC: router enum

    static func oneOffRequests(client: APIClient) async throws {
        // BEGIN DOCC: one-off requests
        let user = try await client.send(APIRequest<User>.get("/users/octocat"))
        try await client.send(APIRequest<Void>.delete("/repos/\(user.login)/old"))
        // END DOCC: one-off requests
    }
}

enum HandlingErrorsListings {
    struct User: Codable, Sendable { let login: String }
    struct GitHubError: Decodable, Sendable { let message: String }
    struct GetUser: Endpoint {
        typealias Response = User
        let login: String
        var path: RoutePath { "/users/\(login)" }
    }
    struct BucketListing: Decodable, Sendable { let name: String }
    struct S3Error: Decodable, Sendable { let code: String }
    typealias MyXMLDecoder = ReadmeEscapeHatchExamples.MyXMLDecoder

    static func handle(login: String, client: APIClient) async {
        // BEGIN DOCC: handling errors
        do {
            let user = try await client.send(GetUser(login: login))
            print(user.login)
        } catch let error where error.kind == .apiError {  // error is an APIError here
            print(error.errorBody(as: GitHubError.self)?.message ?? "")
        } catch {
            print(error)  // GET https://api.github.com/users/x failed: 404 Not Found — API error: …
        }
        // END DOCC: handling errors
    }

    // BEGIN DOCC: error body
    struct ListBucket: Endpoint {
        typealias Response = BucketListing
        let name: String
        var path: RoutePath { "/\(name)" }
        var decoder: (any ResponseBodyDecoder)? { MyXMLDecoder() }
        var errorBody: (any (Decodable & Sendable).Type)? { S3Error.self }  // <Error><Code>NoSuchBucket</Code>…
    }
    // END DOCC: error body

    static func mixed(login: String, cacheURL: URL, client: APIClient) async {
        // BEGIN DOCC: typed throws
        do {
            let user = try await client.send(GetUser(login: login))
            try JSONEncoder().encode(user).write(to: cacheURL)  // not Courier's: the block throws any Error
        } catch let error as APIError {
            print(error.kind, error.status?.code ?? 0)
        } catch {
            print("could not cache the user: \(error)")
        }
        // END DOCC: typed throws
    }
}
