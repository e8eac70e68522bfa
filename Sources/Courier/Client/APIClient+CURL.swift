import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// The request `route` would send, as a `curl` command line with secrets redacted (the client's
    /// ``Configuration/redaction``). Middleware is not applied.
    ///
    /// ```swift
    /// let curl = try await client.cURLDescription(for: GetUser(login: "octocat"))
    /// // curl -X GET 'https://api.example.com/users/octocat?key=<redacted>' -H 'User-Agent: Courier/…'
    /// ```
    public func cURLDescription(for route: some Route) async throws(APIError) -> String {
        let (request, body) = try makeRequest(for: route)
        var bytes: Data?
        if let body, body.iterationBehavior == .multiple {
            bytes = try? await Data(collecting: body, upTo: 1 << 20)
        }
        return request.cURLDescription(
            baseURL: baseURL(for: request), body: bytes, redaction: pipeline.settings.redaction)
    }
}
