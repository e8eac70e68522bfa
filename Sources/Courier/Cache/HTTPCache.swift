public import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A private HTTP cache (RFC 9111) for one or more clients: opt in with ``APIClient/Configuration/cache``.
///
/// It sits in the pipeline just above the transport, below middleware, so it sees requests as they go out
/// (credentials and cookies included) and keys them by URL and the fields a response `Vary`s on.
/// - A fresh stored response (`max-age`, `Expires`, or 10 % of its age since `Last-Modified` for statuses
///   that allow it) is served without a request, with `Age` set; ``APIResponse/cacheStatus`` says
///   ``CacheStatus/cached``.
/// - A stale one with a validator is revalidated with `If-None-Match` / `If-Modified-Since`; a `304` updates
///   the stored head and serves the stored body (``CacheStatus/revalidated``).
/// - `no-store` (request or response) keeps a response out; `no-cache` and `must-revalidate` are honoured;
///   responses to requests with `Authorization` are stored, as a private cache may.
/// - A successful `POST`, `PUT`, `PATCH` or `DELETE` invalidates what is stored for its URL and for the
///   same-origin `Location` and `Content-Location` it names.
/// - Only `GET` responses are stored, each up to ``maxEntrySize`` and only once the body has been read in
///   full; partial (`206`) responses are not.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(maxBytes: 50 * 1024 * 1024))
/// let client = APIClient(baseURL: url) { $0.cache = cache }
/// ```
public final class HTTPCache: Sendable {
    /// Where responses are kept.
    public let store: any HTTPCacheStore
    /// The largest body stored, in bytes; a longer response passes through unstored.
    public let maxEntrySize: Int
    let now: @Sendable () -> Date

    /// A cache over `store` (in memory, 10 MiB, by default); `now` is the clock freshness is judged by.
    public init(
        store: any HTTPCacheStore = MemoryCacheStore(), maxEntrySize: Int = 2 * 1024 * 1024,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.maxEntrySize = maxEntrySize
        self.now = now
    }

    /// Removes every stored response.
    public func removeAll() async throws { try await store.removeAll() }

    /// Statuses a response may be stored with, and given a heuristic lifetime, without explicit freshness
    /// (RFC 9110 §15.1; 206 is left out because ranges are not stored).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Fields never stored (hop-by-hop, §3.1), besides those a `Connection` field names.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authentication-info", "proxy-authorization",
    ]

    typealias Network = (HTTPRequest) async throws -> (HTTPResponse, HTTPBody?)

    /// `request` to `url` answered from the cache, by revalidation, or by `network` (storing what it may).
    func exchange(
        _ request: HTTPRequest, url: String, mode: CacheMode, credentialFields: Set<HTTPField.Name>, network: Network
    ) async throws -> (
        HTTPResponse, HTTPBody?, CacheStatus
    ) {
        guard request.method == .get else {
            let (response, body) = try await network(request)
            if !Self.safeMethods.contains(request.method) && (200..<400).contains(response.status.code) {
                await invalidate(url: url, response: response)
            }
            return (response, body, .network)
        }
        let control = CacheControl(request.headerFields)
        let pragmaNoCache =
            control.isEmpty && request.headerFields[values: .pragma].contains { $0.contains("no-cache") }
        // A range is not served from the cache, nor stored (partial responses are not kept).
        if mode == .bypass || control.noStore || request.headerFields.contains(.range) {
            let (response, body) = try await network(request)
            return (response, body, .network)
        }
        let stored = mode == .reload ? [] : ((try? await store.responses(for: url)) ?? [])
        let time = now()
        if let candidate = stored.first(where: { $0.matches(request, credentialFields: credentialFields) }) {
            let usable = !control.noCache && !pragmaNoCache && isFresh(candidate, for: control, at: time)
            if mode == .returnCacheElseLoad || mode == .onlyIfCached || (mode == .useProtocol && usable)
                || (control.onlyIfCached && usable)
            {
                return (candidate.servedResponse(at: time), HTTPBody(candidate.body), .cached)
            }
            // RFC 9111 §5.2.1.7: nothing suitable stored, and no request may be made, not even to revalidate.
            if control.onlyIfCached { return (HTTPResponse(status: .gatewayTimeout), HTTPBody(), .network) }
            if let conditional = Self.conditional(request, validating: candidate) {
                let requestTime = now()
                let (response, body) = try await network(conditional)
                if response.status == .notModified {
                    if let body { _ = try? await Data(collecting: body, upTo: 64 * 1024) }
                    let updated = await update(candidate, with: response, requestTime: requestTime)
                    return (updated.servedResponse(at: now()), HTTPBody(updated.body), .revalidated)
                }
                let passing = await storing(
                    response, body, for: request, url: url, requestTime: requestTime, credentialFields: credentialFields
                )
                return (response, passing, .network)
            }
        } else if mode == .onlyIfCached || control.onlyIfCached {
            // RFC 9111 §5.2.1.7: nothing suitable stored, and no request may be made.
            return (HTTPResponse(status: .gatewayTimeout), HTTPBody(), .network)
        }
        let requestTime = now()
        let (response, body) = try await network(request)
        let passing = await storing(
            response, body, for: request, url: url, requestTime: requestTime, credentialFields: credentialFields)
        return (response, passing, .network)
    }

    private static let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]

    /// Whether `stored` may be served without revalidation at `time` under the request's directives.
    private func isFresh(_ stored: CachedResponse, for request: CacheControl, at time: Date) -> Bool {
        let responseControl = stored.cacheControl
        if responseControl.noCache { return false }
        let age = stored.currentAge(at: time)
        var lifetime = stored.freshnessLifetime(control: responseControl)
        if let maxAge = request.maxAge { lifetime = min(lifetime, TimeInterval(maxAge)) }
        if let minFresh = request.minFresh, lifetime - age < TimeInterval(minFresh) { return false }
        if lifetime > age { return true }
        // Stale: served only when the request accepts staleness and the response doesn't forbid it.
        guard let maxStale = request.maxStale, !responseControl.mustRevalidate else { return false }
        return age - lifetime <= TimeInterval(maxStale)
    }

    /// `request` made conditional on `stored`'s validators, or `nil` when it has none or the request is
    /// already conditional (its own validators are the caller's to judge).
    private static func conditional(_ request: HTTPRequest, validating stored: CachedResponse) -> HTTPRequest? {
        let fields = request.headerFields
        if fields.contains(.ifNoneMatch) || fields.contains(.ifModifiedSince) || fields.contains(.ifMatch)
            || fields.contains(.ifUnmodifiedSince) || fields.contains(.ifRange)
        {
            return nil
        }
        let etag = stored.response.headerFields[.eTag]
        let lastModified = stored.response.headerFields[.lastModified]
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let etag { conditional.headerFields[.ifNoneMatch] = etag }
        if let lastModified { conditional.headerFields[.ifModifiedSince] = lastModified }
        return conditional
    }

    /// `body`, passing through, and stored with `response` once read in full when the response may be stored.
    private func storing(
        _ response: HTTPResponse, _ body: HTTPBody?, for request: HTTPRequest, url: String, requestTime: Date,
        credentialFields: Set<HTTPField.Name>
    ) async -> HTTPBody? {
        guard
            let entry = storable(
                response, for: request, url: url, requestTime: requestTime, credentialFields: credentialFields)
        else { return body }
        guard let body else {
            await save(entry)
            return nil
        }
        if case .known(let length) = body.length {
            if length > maxEntrySize { return body }
            // An empty body may never be read (a collector stops at a declared length of 0): store it now.
            if length == 0 {
                await save(entry)
                return body
            }
        }
        let recorder = StoringBody(base: body, entry: entry, cache: self, limit: maxEntrySize)
        return HTTPBody(recorder, length: body.length, iterationBehavior: .single)
    }

    /// The entry for `response` when RFC 9111 §3 lets a private cache store it.
    private func storable(
        _ response: HTTPResponse, for request: HTTPRequest, url: String, requestTime: Date,
        credentialFields: Set<HTTPField.Name>
    ) -> CachedResponse? {
        let code = response.status.code
        guard code >= 200, code != 206, code != 304, !CacheControl(request.headerFields).noStore else { return nil }
        let control = CacheControl(response.headerFields)
        guard !control.noStore else { return nil }
        let varyNames = CachedResponse.varyNames(response)
        guard !varyNames.contains("*") else { return nil }
        // An event stream is read as it arrives, never replayed.
        if response.headerFields[.contentType]?.lowercased().hasPrefix("text/event-stream") == true { return nil }
        let explicit =
            control.maxAge != nil || response.headerFields.contains(.expires) || control.isPublic
            || control.isPrivate
        guard explicit || Self.heuristicallyCacheable.contains(code) else { return nil }
        var varying: [String: String?] = [:]
        for name in varyNames {
            guard let fieldName = HTTPField.Name(name) else { continue }
            // A credential the response varies on is kept as a fingerprint, like the credentials below.
            varying[name] =
                CachedResponse.allCredentialFields(credentialFields).contains(fieldName)
                ? CachedResponse.fingerprint(request.headerFields[values: fieldName])
                : CachedResponse.normalized(request.headerFields, fieldName)
        }
        if let fingerprint = CachedResponse.credentialFingerprint(request.headerFields, credentialFields) {
            varying[CachedResponse.credentialsKey] = fingerprint
        }
        let credentialed =
            varying[CachedResponse.credentialsKey] != nil || response.headerFields.contains(.setCookie)
        let entry = CachedResponse(
            url: url, response: Self.storedHead(response), body: Data(), varyingFields: varying,
            requestTime: requestTime, responseTime: now(), isCredentialed: credentialed)
        // A response that is never fresh and can't be revalidated would only be stored to be replaced.
        let fields = response.headerFields
        if entry.freshnessLifetime == 0 && !fields.contains(.eTag) && !fields.contains(.lastModified) { return nil }
        return entry
    }

    /// `response` without the fields a cache must not store.
    static func storedHead(_ response: HTTPResponse) -> HTTPResponse {
        var dropped = hopByHop
        for line in response.headerFields[values: .connection] {
            for name in line.split(separator: ",") {
                dropped.insert(name.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        var head = response
        head.headerFields = HTTPFields(response.headerFields.filter { !dropped.contains($0.name.canonicalName) })
        return head
    }

    /// Stores `entry` for its URL, replacing the variant it matches.
    func save(_ entry: CachedResponse) async {
        let others = ((try? await store.responses(for: entry.url)) ?? []).filter {
            $0.varyingFields != entry.varyingFields
        }
        // The newest variants only: rotating credentials would otherwise add one per token.
        try? await store.setResponses(Array(([entry] + others).prefix(Self.maxVariants)), for: entry.url)
    }

    /// The most variants (responses differing in what they `Vary` on, or in credentials) kept per URL.
    static let maxVariants = 8

    /// `stored` with the head fields of a `304` applied (§4.3.4), saved.
    private func update(_ stored: CachedResponse, with notModified: HTTPResponse, requestTime: Date) async
        -> CachedResponse
    {
        var updated = stored
        let fresh = Self.storedHead(notModified).headerFields.filter { $0.name != .contentLength }
        // The stored Age described the old response; the 304's own (or none) describes this one.
        let names = Set(fresh.map(\.name)).union([.age])
        var fields = HTTPFields(stored.response.headerFields.filter { !names.contains($0.name) })
        fields.append(contentsOf: fresh)
        updated.response.headerFields = fields
        updated.isCredentialed = stored.isCredentialed || notModified.headerFields.contains(.setCookie)
        updated.requestTime = requestTime
        updated.responseTime = now()
        await save(updated)
        return updated
    }

    /// Removes what is stored for `url` and the same-origin `Location` / `Content-Location` of `response`.
    private func invalidate(url: String, response: HTTPResponse) async {
        try? await store.setResponses([], for: url)
        guard let base = URL(string: url) else { return }
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[name],
                let target = URL(string: value, relativeTo: base)?.absoluteURL,
                target.scheme == base.scheme, target.host == base.host, target.port == base.port
            else { continue }
            var text = target.absoluteString
            if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
            try? await store.setResponses([], for: text)
        }
    }
}

/// How a request uses the cache; ``CacheMode/useProtocol`` unless an endpoint or the client says otherwise.
public enum CacheMode: Sendable, Hashable {
    /// As RFC 9111 says: fresh responses are served, stale ones revalidated.
    case useProtocol
    /// A stored response is always revalidated before use (`Cache-Control: no-cache`).
    case revalidate
    /// The network is always asked, and its answer stored (a reload).
    case reload
    /// A stored response is used however old; the network only when there is none.
    case returnCacheElseLoad
    /// Only a stored response, however old; none is a `504 Gateway Timeout`, without a request.
    case onlyIfCached
    /// The cache is neither read nor written (`Cache-Control: no-store`).
    case bypass
}

/// Where a response came from.
public enum CacheStatus: Sendable, Hashable {
    /// From the network (and stored, when it could be).
    case network
    /// From the cache, without a request.
    case cached
    /// From the cache, after the server confirmed it with `304 Not Modified`.
    case revalidated
}

/// A body passing through to the reader while it is recorded; once it ends, the response is stored.
private struct StoringBody: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk
    let base: HTTPBody
    let entry: CachedResponse
    let cache: HTTPCache
    let limit: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: HTTPBody.AsyncIterator
        let entry: CachedResponse
        let cache: HTTPCache
        let limit: Int
        var recorded: [UInt8]? = []

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            guard let chunk = try await base.next() else {
                if let recorded {
                    var entry = entry
                    entry.body = Data(recorded)
                    await cache.save(entry)
                    self.recorded = nil
                }
                return nil
            }
            if var bytes = recorded {
                recorded = nil  // so that the array is not copied when appended to
                if bytes.count + chunk.count <= limit {
                    bytes.append(contentsOf: chunk)
                    recorded = bytes
                }
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), entry: entry, cache: cache, limit: limit)
    }
}
