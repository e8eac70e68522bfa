public import Foundation
public import HTTPTypes
public import OpenAPIRuntime

/// A `ClientTransport` that answers every request at once with the same `200 OK` and JSON body, so that
/// a benchmark through it measures Courier's own path and nothing of a network.
///
/// The response head and body are built once; the body can be iterated any number of times.
public struct CannedTransport: ClientTransport {
    private let response: HTTPResponse
    private let body: HTTPBody

    /// A transport that always returns `body` as `application/json`, with `fields` besides.
    public init(body: Data, fields: HTTPFields = [:]) {
        var headerFields: HTTPFields = [.contentType: "application/json", .contentLength: String(body.count)]
        headerFields.append(contentsOf: fields)
        response = HTTPResponse(status: .ok, headerFields: headerFields)
        self.body = HTTPBody(body)
    }

    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        (response, self.body)
    }
}
