import Foundation
public import HTTPTypes

/// Which query items and header fields carry secrets, and how to hide them in URLs, headers and text.
///
/// The defaults cover API keys, tokens, passwords, signatures, `Authorization` and cookies; add your own
/// names with ``APIClient/Configuration/redaction``:
/// ```swift
/// let client = APIClient(baseURL: url) {
///     $0.redaction.queryNames.insert("session")
///     if let session = HTTPField.Name("X-Session") { $0.redaction.headerNames.insert(session) }
/// }
/// ```
public struct Redaction: Sendable, Hashable {
    /// Names of query items, form fields and JSON keys whose values are secret, compared without regard to
    /// case, `_` or `-` (`api_key`, `apiKey` and `API-KEY` are one name).
    public var queryNames: Set<String> {
        didSet { queryNames = Set(queryNames.map(Self.normalized)) }
    }
    /// Header field names whose values are secret.
    public var headerNames: Set<HTTPField.Name>

    /// What a secret is replaced with.
    public static let placeholder = "<redacted>"

    /// Creates a redaction policy.
    public init(queryNames: Set<String>, headerNames: Set<HTTPField.Name>) {
        self.queryNames = Set(queryNames.map(Self.normalized))
        self.headerNames = headerNames
    }

    /// API keys, tokens, passwords and signatures in queries; credentials and cookies in headers.
    public static let `default` = Redaction(
        queryNames: [
            "key", "api_key", "apikey", "api-key", "access_token", "accesstoken", "token", "auth", "client_secret",
            "password", "passwd", "secret", "signature", "sig", "sessionid", "refresh_token",
            // Presigned S3 and Google Cloud Storage URLs.
            "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
        ],
        headerNames: [.authorization, .proxyAuthorization, .cookie, .setCookie, .xAPIKey, .xAuthToken]
    )

    /// The names this policy or `other` hides; `self` when `other` is `nil` or adds nothing.
    func union(_ other: Redaction?) -> Redaction {
        guard let other, other != self else { return self }
        var both = self
        both.queryNames.formUnion(other.queryNames)
        both.headerNames.formUnion(other.headerNames)
        return both
    }

    /// Whether a query item of this name is secret.
    public func isSecretQueryName(_ name: some StringProtocol) -> Bool {
        queryNames.contains(Self.normalized(name))
    }

    private static func normalized(_ name: some StringProtocol) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// `url` with the value of every secret query item replaced by ``placeholder``.
    public func redact(url: String) -> String {
        let url = Self.withoutUserInfo(url)
        guard let queryStart = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[queryStart...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        let pairs = EncodedQueryPair.split(query, keepingEmpty: true).map { pair -> String in
            guard pair.encodedValue != nil, isSecretQueryName(queryKeyBase(pair.name())) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(Self.placeholder)"
        }
        return url[...queryStart] + pairs.joined(separator: "&") + url[fragmentStart...]
    }

    /// `scheme://user:password@host…` as `scheme://<redacted>@host…`.
    private static func withoutUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return url }
        return url[..<schemeEnd.upperBound] + placeholder + url[at...]
    }

    /// `fields` with the value of every secret field replaced by ``placeholder``.
    public func redact(headers fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for field in fields {
            redacted.append(
                headerNames.contains(field.name) ? HTTPField(name: field.name, value: Self.placeholder) : field)
        }
        return redacted
    }

    /// The secret values carried by a request (query values, header values, the token inside
    /// `Bearer …`, the password inside `Basic …`), in every form they may be written, longest first.
    func secrets(inPath path: String?, headers: HTTPFields) -> [String] {
        var found: Set<String> = []
        if let path, let queryStart = path.firstIndex(of: "?") {
            for pair in EncodedQueryPair.split(path[path.index(after: queryStart)...]) {
                guard let value = pair.encodedValue, isSecretQueryName(queryKeyBase(pair.name())) else { continue }
                found.insert(String(value))
                if let decoded = pair.value(plusIsSpace: true) { found.insert(decoded) }
            }
        }
        for field in headers where headerNames.contains(field.name) {
            found.insert(field.value)
            found.formUnion(credentials(inHeaderValue: field.value))
        }
        return found.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
    }

    /// `text` with every one of `secrets` replaced by ``placeholder``, and secret query items redacted in
    /// every URL it mentions (a transport's error may quote a URL that middleware added a key to).
    func scrub(_ text: String, secrets: [String]) -> String {
        redactURLs(in: secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Self.placeholder) })
    }

    /// Every `http://` or `https://` URL in `text` passed through ``redact(url:)``.
    func redactURLs(in text: String) -> String {
        guard text.contains("http") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = [rest.range(of: "http://"), rest.range(of: "https://")].compactMap({ $0 })
            .min(by: { $0.lowerBound < $1.lowerBound })
        {
            result += rest[..<start.lowerBound]
            let tail = rest[start.lowerBound...]
            let end =
                tail.firstIndex { " \",}<>\\\n\r\t".contains($0) }
                ?? tail.endIndex
            result += redact(url: String(tail[..<end]))
            rest = tail[end...]
        }
        return result + rest
    }

    /// The name without a trailing `[...]`, so `key[]` and `auth[token]` are judged by `key` and `auth`.
    private func queryKeyBase(_ name: String) -> Substring {
        name.prefix { $0 != "[" }
    }

    private func credentials(inHeaderValue value: String) -> [String] {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return [] }
        var result = [String(parts[1])]
        if parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        {
            result.append(String(pair[pair.index(after: colon)...]))
        }
        for cookie in value.split(separator: ";") {
            if let equals = cookie.firstIndex(of: "=") { result.append(String(cookie[cookie.index(after: equals)...])) }
        }
        return result
    }
}
