import Courier
import CourierTesting
import Foundation
import HTTPTypes
import Testing

/// The ways users catch ``APIError`` from `send`'s typed throws: `catch … where` with and without a
/// binding, rethrowing, inside loops, mixed with other throwing calls, and `Result`. Each compiles (some of
/// these shapes have crashed earlier Swift compilers) and picks the branch its error calls for.
@Suite struct TypedThrowsPatternTests {
    struct User: Decodable, Sendable { let login: String }
    struct GetUser: Endpoint {
        typealias Response = User
        let login: String
        var path: RoutePath { "/users/\(login)" }
    }

    /// `octocat` exists; `ghost` is a 404; `flaky` is a 503.
    let client = APIClient(
        baseURL: exampleBaseURL,
        transport: MockTransport(stubs: [
            .init(.get, "/users/octocat", json: #"{"login": "octocat"}"#),
            .init(.get, "/users/ghost", status: .notFound, json: #"{"message": "Not Found"}"#),
            .init(.get, "/users/flaky", status: .serviceUnavailable, json: "{}"),
        ]))

    func branch(_ login: String) async -> String {
        do {
            return try await client.send(GetUser(login: login)).login
        } catch  where error.status == .notFound {
            return "not found"
        } catch {
            return error.kind == .unacceptableStatus ? "another status" : "something else"
        }
    }

    @Test func catchWhereOnTheStatus() async {
        #expect(await branch("octocat") == "octocat")
        #expect(await branch("ghost") == "not found")
        #expect(await branch("flaky") == "another status")
    }

    func userOrNil(_ login: String) async throws(APIError) -> User? {
        do {
            return try await client.send(GetUser(login: login))
        } catch  where error.status == .notFound {
            return nil
        }
    }

    @Test func catchWhereThenRethrowTheRest() async throws {
        #expect(try await userOrNil("ghost") == nil)
        let error = await #expect(throws: APIError.self) { try await userOrNil("flaky") }
        #expect(error?.status == .serviceUnavailable)
    }

    @Test func catchWhereInsideALoopWithContinueAndBreak() async {
        var found: [String] = []
        var stoppedAt: String?
        for login in ["ghost", "octocat", "flaky", "octocat"] {
            do {
                found.append(try await client.send(GetUser(login: login)).login)
            } catch  where error.kind == .unacceptableStatus && error.status == .notFound {
                continue
            } catch {
                stoppedAt = login
                break
            }
        }
        #expect(found == ["octocat"])
        #expect(stoppedAt == "flaky")
    }

    @Test func aDoBlockWithOtherThrowingCallsCatchesAnyError() async {
        func greeting(_ login: String) async -> String {
            do {
                let user = try await client.send(GetUser(login: login))
                let data = try JSONEncoder().encode(["hello": user.login])
                return String(decoding: data, as: UTF8.self)
            } catch let error as APIError where error.status == .notFound {
                return "nobody"
            } catch {
                return "failed"
            }
        }
        #expect(await greeting("octocat") == #"{"hello":"octocat"}"#)
        #expect(await greeting("ghost") == "nobody")
        #expect(await greeting("flaky") == "failed")
    }

    @Test func aRetryLoopOverATypedDoBlock() async {
        var attempts = 0
        var user: User?
        while attempts < 3 && user == nil {
            attempts += 1
            do throws(APIError) {
                user = try await client.send(GetUser(login: "flaky"))
            } catch  where error.status == .serviceUnavailable {
                continue
            } catch {
                break
            }
        }
        #expect(attempts == 3)
        #expect(user == nil)
    }

    @Test func resultWithATypedFailure() async {
        func result(_ login: String) async -> Result<User, APIError> {
            do { return .success(try await client.send(GetUser(login: login))) } catch { return .failure(error) }
        }
        switch await result("ghost") {
        case .success: Issue.record("ghost should not be found")
        case .failure(let error) where error.status == .notFound: break
        case .failure(let error): Issue.record("unexpected \(error)")
        }
    }
}
