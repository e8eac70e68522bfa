public import Foundation
public import HTTPTypes

/// A response an ``HTTPCache`` keeps, with what it needs to judge its freshness (RFC 9111 §4.2) and to choose
/// it for a request (`Vary`, §4.1). `Codable`, so a ``HTTPCacheStore`` can keep it anywhere.
public struct CachedResponse: Sendable, Codable, Hashable {
    /// The request URL it answers (without a fragment): the key it is stored under.
    public var url: String
    /// The response head as stored: hop-by-hop fields removed.
    public var response: HTTPResponse
    /// The body, in full (as received, before content decoding).
    public var body: Data
    /// The request's values of the fields the response's `Vary` names, lowercased names; `nil` values for
    /// fields the request did not have.
    public var varyingFields: [String: String?]
    /// When the request that fetched it (or last revalidated it) was sent.
    public var requestTime: Date
    /// When that response arrived.
    public var responseTime: Date
    /// Whether the request carried credentials (`Authorization` or `Cookie`) or the response set a cookie: an
    /// on-disk store keeps such a response only when told to.
    public var isCredentialed: Bool

    /// A stored response.
    public init(
        url: String, response: HTTPResponse, body: Data, varyingFields: [String: String?], requestTime: Date,
        responseTime: Date, isCredentialed: Bool
    ) {
        self.url = url
        self.response = response
        self.body = body
        self.varyingFields = varyingFields
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.isCredentialed = isCredentialed
    }
}

extension CachedResponse {
    var cacheControl: CacheControl { CacheControl(response.headerFields) }

    /// The response's `Date`, or when it arrived if it has none (§4.2.3).
    var dateValue: Date { response.headerFields[.date].flatMap { HTTPDate.parse($0) } ?? responseTime }

    /// How old the response is at `now` (§4.2.3: corrected initial age plus resident time), in seconds.
    func currentAge(at now: Date) -> TimeInterval {
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = TimeInterval(Self.ageValue(response.headerFields)) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }

    /// The first `Age` value when it is a plain non-negative integer, else 0 (an invalid `Age` is ignored).
    static func ageValue(_ fields: HTTPFields) -> Int {
        guard let line = fields[values: .age].first else { return 0 }
        let first = line.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
        return CacheControl.deltaSeconds(first.trimmingCharacters(in: .whitespaces).filter { $0 != "\"" }) ?? 0
    }

    /// How long the response stays fresh for a private cache (§4.2.1): `max-age`, else `Expires` − `Date`, else
    /// 10 % of the time since `Last-Modified` for a status that may be cached heuristically (§4.2.2).
    var freshnessLifetime: TimeInterval { freshnessLifetime(control: cacheControl) }

    /// ``freshnessLifetime`` with the response's `Cache-Control` already parsed.
    func freshnessLifetime(control: CacheControl) -> TimeInterval {
        if let maxAge = control.maxAge { return TimeInterval(maxAge) }
        let expiresLines = response.headerFields[values: .expires]
        if !expiresLines.isEmpty {
            // An invalid Expires, or more than one, means already expired (§5.3).
            guard expiresLines.count == 1, let expires = Self.strictDate(expiresLines[0]) else { return 0 }
            return max(0, expires.timeIntervalSince(dateValue))
        }
        if control.isPublic || HTTPCache.heuristicallyCacheable.contains(response.status.code),
            let lastModified = response.headerFields[.lastModified].flatMap({ HTTPDate.parse($0) })
        {
            return max(0, dateValue.timeIntervalSince(lastModified)) / 10
        }
        return 0
    }

    /// An HTTP-date in one of its three forms exactly, single spaces and all.
    static func strictDate(_ text: String) -> Date? {
        if text.contains(",") && text.contains("  ") { return nil }
        return HTTPDate.parse(text)
    }

    /// Whether it answers `request` (same `Vary` values, §4.1, and the same credentials); `Vary: *` answers
    /// none.
    func matches(_ request: HTTPRequest, credentialFields: Set<HTTPField.Name> = []) -> Bool {
        for (name, value) in varyingFields {
            if name == "*" { return false }
            if name == Self.credentialsKey {
                if Self.credentialFingerprint(request.headerFields, credentialFields) != value { return false }
                continue
            }
            guard let fieldName = HTTPField.Name(name) else { return false }
            let actual =
                Self.allCredentialFields(credentialFields).contains(fieldName)
                ? Self.fingerprint(request.headerFields[values: fieldName])
                : Self.normalized(request.headerFields, fieldName)
            if actual != value { return false }
        }
        // A response stored without credentials was public: it answers requests with credentials too.
        return true
    }

    /// The key under which ``varyingFields`` keeps a fingerprint of the request's credentials, so that a
    /// response to one user's request is never served to another's (with a cache shared between clients).
    static let credentialsKey = ":credentials"

    /// The credential fields: `Authorization`, `Proxy-Authorization`, `Cookie`, and the ones the client's
    /// redaction names (`X-API-Key`, …).
    static func allCredentialFields(_ extra: Set<HTTPField.Name>) -> Set<HTTPField.Name> {
        extra.union([.authorization, .proxyAuthorization, .cookie])
    }

    /// A fingerprint of the request's credentials (never the values themselves, which a disk store would
    /// write), or `nil` when it has none.
    static func credentialFingerprint(_ fields: HTTPFields, _ extra: Set<HTTPField.Name> = []) -> String? {
        let names = allCredentialFields(extra).sorted { $0.canonicalName < $1.canonicalName }
        var parts: [String] = []
        for name in names {
            let values = fields[values: name]
            if !values.isEmpty { parts.append(name.canonicalName + ":" + values.joined(separator: "\n")) }
        }
        return parts.isEmpty ? nil : fingerprint(parts)
    }

    /// A 64-bit FNV-1a hash of `values` in hex, or `nil` for none. Not a cryptographic hash: a disk store
    /// that keeps credentialed responses (``DiskCacheStore/storesCredentialedResponses``) keeps these too,
    /// and a weak password's could be found by trying candidates.
    static func fingerprint(_ values: [String]) -> String? {
        values.isEmpty ? nil : FNV1a64.hex(values.joined(separator: "\n"))
    }

    /// The names `Vary` lists, lowercased.
    static func varyNames(_ response: HTTPResponse) -> [String] {
        response.headerFields[values: .vary].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        }.filter { !$0.isEmpty }
    }

    /// A request field's lines joined with `, ` and inner whitespace collapsed, for comparison; `nil` if absent.
    static func normalized(_ fields: HTTPFields, _ name: HTTPField.Name) -> String? {
        let lines = fields[values: name]
        guard !lines.isEmpty else { return nil }
        return lines.joined(separator: ", ").split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The head served from the cache: the stored one with `Age` set to the current age.
    func servedResponse(at now: Date) -> HTTPResponse {
        var served = response
        served.headerFields[.age] = String(Int(currentAge(at: now)))
        return served
    }
}
