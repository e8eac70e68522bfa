import Foundation
import HTTPTypes
import OpenAPIRuntime

extension APIClient {
    /// Builds the request head and body for `route`: encoded path and query (the route's items, then the
    /// client's defaults), merged header fields, and the encoded body with its `Content-Type`.
    func makeRequest(for route: some Route) throws(APIError) -> (HTTPRequest, HTTPBody?) {
        let normalized: NormalizedBase
        switch base {
        case .success(let valid): normalized = valid
        case .failure(var error):
            error.method = route.method
            throw error
        }
        // A route's path is usually computed: read it once.
        let routePath = route.path
        // An absolute URL sets the request's scheme and authority, which say where it goes from here on.
        let target = try routePath.absoluteURL.map { url throws(APIError) in
            try self.target(of: url, method: route.method, base: normalized)
        }
        if let dot = routePath.dotSegment {
            let partial = HTTPRequest(method: route.method, scheme: nil, authority: nil, path: routePath.encoded)
            throw failureContext(for: partial).error(
                .invalidRequest, phase: .building,
                message: "the path value \"\(dot)\" is a dot segment, which servers read as a step up or in place")
        }
        let scheme = target?.origin.scheme
        let authority = target?.origin.authority
        let path: String
        var headerFields: HTTPFields
        let body: HTTPBody?
        do {
            path = try makePath(
                routePath, for: route,
                defaultQuery: target?.isBaseOrigin == false ? [:] : pipeline.settings.requests.query)
            headerFields = mergedHeaders(route.headers)
            body = try makeBody(try route.body.storage, headerFields: &headerFields)
        } catch let error as APIError {
            throw error
        } catch {
            let partial = HTTPRequest(
                method: route.method, scheme: scheme, authority: authority, path: routePath.encoded)
            // A file to send that can't be read is the file's fault, not the encoding's.
            let kind: APIError.Kind = FileChunkReader.isFileFailure(error) ? .fileAccess : .encoding
            throw failureContext(for: partial).error(kind, phase: .building, underlying: error)
        }
        var request = HTTPRequest(
            method: route.method, scheme: scheme, authority: authority, path: path, headerFields: headerFields)
        do {
            try route.prepare(&request)
        } catch {
            throw failureContext(for: request).error(.rejected, phase: .preparing, underlying: error)
        }
        // Where a request goes was checked above; `prepare` may not move it (write the path as `.url(_:)`).
        guard request.scheme == scheme, request.authority == authority else {
            var checked = request
            (checked.scheme, checked.authority) = (scheme, authority)
            throw failureContext(for: checked).error(
                .rejected, phase: .preparing,
                message: "prepare(_:) changed the request's scheme or authority; use RoutePath.url(_:) instead")
        }
        return (request, body)
    }

    /// The origin of an absolute URL a route names, if the client may send to it.
    private func target(of url: URL, method: HTTPRequest.Method, base: NormalizedBase) throws(APIError)
        -> (origin: Origin, isBaseOrigin: Bool)
    {
        func refuse(_ reason: String) -> APIError {
            let shown = pipeline.settings.redaction.redact(url: url.absoluteString)
            var error = APIError(.invalidRequest, phase: .building, message: "\(shown) \(reason)")
            error.method = method
            error.url = shown
            return error
        }
        let origin: Origin
        switch Origin.validate(url) {
        case .success(let valid): origin = valid
        case .failure(let invalid): throw refuse(invalid.reason)
        }
        if origin == base.origin { return (origin, true) }
        guard pipeline.settings.requests.allowedOrigins.contains(origin) else {
            throw refuse(
                "is on \(origin), which is neither the base URL's origin (\(base.origin)) nor in allowedOrigins")
        }
        return (origin, false)
    }

    private func makePath(_ routePath: RoutePath, for route: some Route, defaultQuery defaults: Query) throws -> String
    {
        var path = routePath.encoded
        if !path.isEmpty && !path.hasPrefix("/") && !path.hasPrefix("?") { path.insert("/", at: path.startIndex) }
        let query = try route.query
        guard !query.isEmpty || !defaults.isEmpty else { return path }
        // A path may carry a query of its own (a followed link); its names also win over the defaults.
        let literalQuery = path.firstIndex(of: "?").map { path[path.index(after: $0)...] }
        let separator: UInt8? =
            literalQuery == nil ? UInt8(ascii: "?") : (literalQuery?.isEmpty == true ? nil : UInt8(ascii: "&"))
        var writer = QueryWriter(
            prefix: path, firstSeparator: separator, capacity: 24 * (query.parameters.count + defaults.parameters.count)
        )
        pipeline.settings.requests.queryEncoding.serialize(query.parameters, escaping: .unreserved, into: &writer)
        if !defaults.isEmpty {
            let literalNames = literalQuery.map(Self.names(in:)) ?? []
            let remaining = defaults.parameters.lazy.filter {
                !query.contains($0.name) && !literalNames.contains($0.name)
            }
            pipeline.settings.requests.queryEncoding.serialize(remaining, escaping: .unreserved, into: &writer)
        }
        return writer.string
    }

    /// The decoded names of an encoded query, such as `a%5B%5D` → `a[]`.
    private static func names(in query: Substring) -> Set<String> {
        Set(EncodedQueryPair.split(query).map { $0.name() })
    }

    private func mergedHeaders(_ own: HTTPFields) -> HTTPFields {
        var fields = pipeline.settings.requests.headers
        if own.isEmpty { return fields }
        if fields.isEmpty { return own }
        for name in Set(own.lazy.map(\.name)) { fields[fields: name] = own[fields: name] }
        return fields
    }

    private func makeBody(_ body: RequestBody.Storage, headerFields: inout HTTPFields) throws -> HTTPBody? {
        let contentType: String
        let httpBody: HTTPBody
        switch body {
        case .empty:
            return nil
        case .encodable(let value, let encoder):
            let encoder = encoder ?? pipeline.settings.requests.jsonEncoder
            httpBody = HTTPBody(try encoder.encode(value))
            contentType = encoder.contentType
        case .form(let fields):
            var writer = QueryWriter(capacity: fields.parameters.count * 24)
            pipeline.settings.requests.queryEncoding.serialize(fields.parameters, escaping: .form, into: &writer)
            httpBody = HTTPBody(writer.bytes)
            contentType = "application/x-www-form-urlencoded; charset=utf-8"
        case .bytes(let data, let type):
            httpBody = HTTPBody(data)
            contentType = type
        case .stream(let stream, let type):
            httpBody = stream
            contentType = type
        case .multipart(let form):
            httpBody = form.makeBody()
            contentType = form.contentType
        case .file(let url, let type):
            httpBody = try FileStream.body(of: url)
            contentType = type
        case .reportingProgress(let inner, let progress):
            return try makeBody(inner, headerFields: &headerFields)?.reportingProgress(progress)
        }
        if !headerFields.has(.contentType) { headerFields[.contentType] = contentType }
        return httpBody
    }
}
