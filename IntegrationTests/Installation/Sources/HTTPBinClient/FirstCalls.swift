import Courier
import Foundation

// BEGIN README: installation calls
/// Calls httpbin twice: a search that succeeds, and a token check that fails because no token was given.
/// Returns the query httpbin echoed and the token check's error.
func tryHTTPBin(baseURL: URL) async throws -> (args: [String: String], tokenError: APIError?) {
    let client = makeHTTPBinClient(baseURL: baseURL, token: nil)
    let echo = try await client.send(Search(text: "swift & linux", page: 2))
    print(echo.args)  // ["q": "swift & linux", "page": "2"]: sent and decoded exactly
    do {
        _ = try await client.send(CheckToken())
        return (echo.args, nil)
    } catch {
        print(error.kind, error.status?.code ?? 0)  // unacceptable status 401: an APIError, not `any Error`
        return (echo.args, error)
    }
}
// END README: installation calls
