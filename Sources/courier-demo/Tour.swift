import Courier
import Foundation
import HTTPTypes

/// The steps of the tour. Each prints one aligned line: what was called, what came back, how long it took.
struct Tour {
    let baseURL: URL

    struct User: Decodable, Sendable {
        let login: String
        let id: Int
    }

    struct GitHubError: Decodable, Sendable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    struct GetUser: Endpoint {
        typealias Response = User
        let login: String
        var path: RoutePath { "/users/\(login)" }
    }

    struct Echo: Decodable, Sendable {
        let method: String
        let path: String
        let query: String?
    }

    /// Runs every step and returns the names of those that failed.
    func run() async -> [String] {
        let client = APIClient(baseURL: baseURL) {
            $0.errorBody = GitHubError.self
            $0.defaultQuery = ["key": "demo-secret-key"]
        }
        var failures: [String] = []
        func step(_ name: String, _ body: () async throws -> String) async {
            let started = ContinuousClock.now
            do {
                let result = try await body()
                report(name, result, since: started, ok: true)
            } catch {
                report(name, "\(error)", since: started, ok: false)
                failures.append(name)
            }
        }

        await step("GET /users/octocat") {
            let user = try await client.send(GetUser(login: "octocat"))
            return "User(login: \(user.login), id: \(user.id))"
        }
        await step("GET /users/nobody → typed error") {
            do {
                _ = try await client.send(GetUser(login: "nobody"))
                throw TourFailure("expected a 404")
            } catch let error as APIError where error.kind == .apiError {
                return "\(error)"
            }
        }
        await step("GET /echo with tricky query") {
            let echo = try await client.send(APIRequest<Echo>.get("/echo/a b", query: ["q": "a+b&c=d é"]))
            return "server saw " + Redaction.default.redact(url: "\(echo.path)?\(echo.query ?? "")")
        }
        await step("GET /no-content → Void") {
            try await client.send(APIRequest<Void>.get("/no-content"))
            return "204, nothing to decode"
        }
        await step("GET /slow with a 200 ms limit") {
            let limited = APIClient(baseURL: baseURL) { $0.timeout = .milliseconds(200) }
            do {
                _ = try await limited.send(APIRequest<Data>.get("/slow", query: ["ms": 2000]))
                throw TourFailure("expected a timeout")
            } catch let error as APIError where error.kind == .timedOut {
                return "\(error.kind)"
            }
        }
        return failures
    }

    private func report(_ name: String, _ result: String, since started: ContinuousClock.Instant, ok: Bool) {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let mark = ok ? "✓" : "✗"
        let padded = name.padding(toLength: 34, withPad: " ", startingAt: 0)
        print("\(mark) \(padded) \(String(format: "%7.1f ms", milliseconds))  \(result)")
    }
}

struct TourFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
