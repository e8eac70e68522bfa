import Courier
import Foundation
import HTTPTypes

struct User: Codable, Sendable, Equatable {
    let login: String
    let id: Int
}

struct MessageError: Decodable, Sendable, Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

struct GetUser: Endpoint {
    typealias Response = User
    let login: String
    var path: RoutePath { "/users/\(login)" }
}

/// The base URL of unit tests (a literal that always parses; the fallback only satisfies the type checker).
let exampleBaseURL = URL(string: "https://api.example.com/v1") ?? URL(filePath: "/")
