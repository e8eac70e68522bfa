import Foundation
import HTTPTypes
import OpenAPIRuntime

/// What the pipeline does with a response that may be a redirect (see ``RedirectPolicy`` for the rules).
enum RedirectStep {
    /// Not a redirect to follow: validate and consume the response.
    case deliver
    /// Send `request` (with `body`) next, recording `redirect`; `crossesOrigin` when it goes to an origin
    /// other than the one the request started at.
    case follow(HTTPRequest, HTTPBody?, Redirect, crossesOrigin: Bool)
    /// A redirect that must not be followed, and why.
    case refuse(APIError.Kind, String)

    /// The statuses followed.
    private static let followed: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether `response` is a redirect a policy may follow.
    static func isRedirect(_ response: HTTPResponse) -> Bool {
        followed.contains(response.status.code) && response.headerFields[.location] != nil
    }

    /// The step after `response` to `request`, which went to `url` (its full URL) with `body`, when
    /// `followed` redirects were already followed since the request left `start`, its first origin. A hop to
    /// any other origin goes without the credentials the request carried.
    static func next(
        after response: HTTPResponse, to request: HTTPRequest, at url: String, body: HTTPBody?, followed: Int,
        from start: Origin?, policy: RedirectPolicy, redaction: Redaction
    ) -> RedirectStep {
        guard policy.maxRedirects > 0, isRedirect(response), let location = response.headerFields[.location] else {
            return .deliver
        }
        let shownLocation = redaction.redact(url: location)
        guard let current = URL(string: url), let target = URL(string: location, relativeTo: current)?.absoluteURL
        else {
            return .refuse(.redirectRefused, "\(response.status.code) to \(shownLocation), which is not a valid URL")
        }
        let targetText = target.absoluteString
        let redirect = Redirect(
            status: response.status, method: request.method, url: redaction.redact(url: url),
            location: redaction.redact(url: targetText))
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            return .refuse(
                .redirectRefused, "\(redirect) is not followed: only http and https redirects are followed")
        }
        if scheme == "http", current.scheme?.lowercased() == "https", !policy.allowsInsecureDowngrade {
            return .refuse(
                .redirectRefused,
                "\(redirect) is not followed: it leaves https for http (RedirectPolicy.allowsInsecureDowngrade)")
        }
        let origin: Origin
        switch Origin.validate(target) {
        case .success(let valid): origin = valid
        case .failure(let invalid):
            return .refuse(.redirectRefused, "\(redirect) is not followed: it \(invalid.reason)")
        }
        guard followed < policy.maxRedirects else {
            return .refuse(.tooManyRedirects, "more than \(policy.maxRedirects) redirects")
        }
        var next = request
        next.scheme = origin.scheme
        next.authority = origin.authority
        next.path = pathAndQuery(of: target)
        var nextBody = body
        let status = response.status.code
        if (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post) {
            next.method = .get
            nextBody = nil
            for name in bodyFieldNames { next.headerFields[name] = nil }
        } else if let body, body.iterationBehavior == .single {
            return .refuse(
                .redirectRefused,
                "\(redirect) is not followed: it must resend the body, which can be read only once")
        }
        let crossesOrigin = origin != start
        if crossesOrigin { next.headerFields = withoutCredentials(next.headerFields, redaction: redaction) }
        return .follow(next, nextBody, redirect, crossesOrigin: crossesOrigin)
    }

    /// The header fields that describe a body, dropped when a redirect turns the request into a `GET`.
    private static let bodyFieldNames: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding,
    ]

    /// `fields` without the credential fields of `redaction` (``Redaction/isCredentialField(_:)``).
    static func withoutCredentials(_ fields: HTTPFields, redaction: Redaction) -> HTTPFields {
        var kept = fields
        kept.removeAll { redaction.isCredentialField($0.name) }
        return kept
    }

    /// `outgoing` (a request as middleware passed it to the transport) with the credentials of
    /// ``withoutCredentials(_:redaction:)`` removed, and every secret query item that `built` (the request
    /// as the redirect made it) did not already carry.
    static func withoutCredentials(_ outgoing: HTTPRequest, built: HTTPRequest, redaction: Redaction) -> HTTPRequest {
        var request = outgoing
        request.headerFields = withoutCredentials(outgoing.headerFields, redaction: redaction)
        guard let path = outgoing.path, let mark = path.firstIndex(of: "?") else { return request }
        let allowed = Set(queryItems(of: built.path ?? "").map { String($0.text) })
        let kept = queryItems(of: path).filter { pair in
            allowed.contains(String(pair.text)) || !redaction.isSecret(pair)
        }
        let query = kept.map { String($0.text) }.joined(separator: "&")
        request.path = String(path[..<mark]) + (query.isEmpty ? "" : "?" + query)
        return request
    }

    /// The encoded query items of a request target.
    private static func queryItems(of path: String) -> [EncodedQueryPair] {
        guard let mark = path.firstIndex(of: "?") else { return [] }
        return EncodedQueryPair.split(path[path.index(after: mark)...], keepingEmpty: true)
    }

    /// The percent-encoded path and query of `url`, as a request target (`/` when the path is empty).
    private static func pathAndQuery(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? "/"
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }
}
