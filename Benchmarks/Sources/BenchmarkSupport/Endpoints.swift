public import Courier
public import HTTPTypes

/// The end-to-end request: `GET /users/{login}`, decoded into a ``User``.
public struct GetUser: Endpoint {
    public typealias Response = User
    public let login: String

    public init(login: String) { self.login = login }

    public var path: RoutePath { "/users/\(login)" }
}

/// ``GetUser`` with a constant `operationID`, to price the default one (`String(describing: Self.self)`,
/// computed per request).
public struct GetUserNamed: Endpoint {
    public typealias Response = User
    public let login: String

    public init(login: String) { self.login = login }

    public var path: RoutePath { "/users/\(login)" }
    public var operationID: String { "getUser" }
}

/// The request-building workload: one interpolated path segment, ten query items and a small JSON body.
public struct UpdateUser: Endpoint {
    public typealias Response = User
    public let login: String
    public let change: ProfileChange

    public init(login: String, change: ProfileChange = .sample) {
        self.login = login
        self.change = change
    }

    public var method: HTTPRequest.Method { .patch }
    public var path: RoutePath { "/users/\(login)" }
    public var query: Query {
        [
            "fields": "login,id,name", "page": 2, "per_page": 30, "sort": "updated", "direction": "desc",
            "since": "2024-01-01T00:00:00Z", "include_private": true, "affiliation": "owner,collaborator",
            "visibility": "all", "q": "swift language:swift",
        ]
    }
    public var body: RequestBody { .json(change) }
}

/// The small JSON body of ``UpdateUser``.
public struct ProfileChange: Encodable, Sendable {
    public let name: String
    public let blog: String
    public let location: String
    public let hireable: Bool

    /// `{"name":"The Octocat","blog":"https://github.blog","location":"San Francisco","hireable":true}`.
    public static let sample = ProfileChange(
        name: "The Octocat", blog: "https://github.blog", location: "San Francisco", hireable: true)
}
