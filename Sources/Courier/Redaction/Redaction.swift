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
        // Searched by byte: the delimiters are ASCII, and a search by Character (or Foundation's `range(of:)`)
        // cost several thousand instructions per URL.
        let url = Self.withoutUserInfo(url)
        guard let queryStart = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { return url }
        let fragmentStart = url.utf8[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        let pairs = EncodedQueryPair.split(query, keepingEmpty: true).map { pair -> String in
            guard pair.encodedValue != nil, isSecret(pair) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(Self.placeholder)"
        }
        return url[...queryStart] + pairs.joined(separator: "&") + url[fragmentStart...]
    }

    /// `scheme://user:password@host…` as `scheme://<redacted>@host…`.
    private static func withoutUserInfo(_ url: String) -> String {
        guard let (_, authority) = url.utf8.schemeAndAuthority(), let at = authority.lastIndex(of: UInt8(ascii: "@"))
        else { return url }
        return url[..<authority.startIndex] + placeholder + url[at...]
    }

    /// `fields` with the value of every secret field replaced by ``placeholder``, and secret query values
    /// redacted in the URLs of `Location` and `Content-Location` (a redirect may point at a signed URL).
    public func redact(headers fields: HTTPFields) -> HTTPFields {
        var redacted = HTTPFields()
        for field in fields {
            if headerNames.contains(field.name) {
                redacted.append(HTTPField(name: field.name, value: Self.placeholder))
            } else if field.name == .location || field.name == .contentLocation {
                redacted.append(HTTPField(name: field.name, value: redact(url: field.value)))
            } else {
                redacted.append(field)
            }
        }
        return redacted
    }

    /// Every secret value `requests` and `responses` carry (secret query values, credential header values,
    /// the token inside `Bearer …`, the password inside `Basic …`, cookie values, cookies a response sets), and
    /// `extra`, each in every spelling it can take in text: as sent, percent-decoded, percent-encoded (query and
    /// form, either hex case), JSON-escaped, and base64 for `Basic` credentials. Longest first, so a longer
    /// spelling is hidden whole. What errors, logs and cURL output hide; also for tools that write exchanges
    /// down, such as CourierTesting's cassettes.
    public func secretValues(in requests: [HTTPRequest], responses: [HTTPResponse] = [], extra: [String] = [])
        -> [String]
    {
        var values = Set(extra)
        // The cookies a response sets are secrets as soon as they arrive.
        for response in responses {
            for line in response.headerFields[values: .setCookie] {
                let pair = line.prefix { $0 != ";" }
                if let equals = pair.firstIndex(of: "=") {
                    values.insert(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
                }
            }
        }
        for request in requests {
            if let path = request.path, let queryStart = path.firstIndex(of: "?") {
                for pair in EncodedQueryPair.split(path[path.index(after: queryStart)...]) {
                    guard let value = pair.encodedValue, isSecret(pair) else { continue }
                    values.insert(String(value))
                    if let decoded = pair.value(plusIsSpace: true) { values.insert(decoded) }
                    if let decoded = pair.value() { values.insert(decoded) }
                }
            }
            for field in request.headerFields where isCredentialField(field.name) {
                values.insert(field.value)
                values.formUnion(credentials(inHeaderValue: field.value))
            }
        }
        var spelled: Set<String> = []
        let json = JSONEncoder()
        for value in values where value.count >= 3 { spelled.formUnion(Self.spellings(of: value, json: json)) }
        return spelled.filter { $0.count >= 3 }.sorted { $0.count > $1.count }
    }

    /// `secret` as it may appear in a URL, a form, a JSON string or an echoed header.
    private static func spellings(of secret: String, json: JSONEncoder) -> Set<String> {
        var result: Set<String> = [secret]
        for encoding in [PercentEncoding.unreserved, .pathLiteral, .form] {
            let encoded = encoding.encode(secret)
            result.insert(encoded)
            result.insert(lowercasingPercentHex(encoded))
        }
        // Foundation's query encoding (URLComponents) leaves more characters as they are.
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) {
            result.insert(encoded)
        }
        if let encoded = try? json.encode(secret), let text = String(data: encoded, encoding: .utf8) {
            let inner = String(text.dropFirst().dropLast())
            result.insert(inner)
            result.insert(inner.replacingOccurrences(of: "\\/", with: "/"))
            result.insert(inner.replacingOccurrences(of: "/", with: "\\/"))
        }
        return result
    }

    /// `text` with the hex digits of every `%XX` in lower case.
    private static func lowercasingPercentHex(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var result = ""
        var pending = 0
        for character in text {
            if character == "%" {
                pending = 2
                result.append(character)
            } else if pending > 0 {
                pending -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `text` with every one of `secrets` replaced by ``placeholder``, and secret query items redacted in
    /// every URL it mentions (a transport's error may quote a URL that middleware added a key to).
    func scrub(_ text: String, secrets: [String]) -> String {
        redactURLs(in: Self.replacing(secrets, in: text))
    }

    /// `text` with every one of `secrets` replaced by ``placeholder``, in order (``secretValues(in:responses:extra:)``
    /// lists the longest spelling first, so it is hidden whole).
    package static func replacing(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }

    /// Every `http://` or `https://` URL in `text` passed through ``redact(url:)``, in one pass.
    func redactURLs(in text: String) -> String {
        guard text.contains("http") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "http") {
            let tail = rest[start.lowerBound...]
            guard tail.hasPrefix("http://") || tail.hasPrefix("https://") else {
                result += rest[..<start.upperBound]
                rest = rest[start.upperBound...]
                continue
            }
            result += rest[..<start.lowerBound]
            let end = tail.firstIndex { " \",}<>\\\n\r\t".contains($0) } ?? tail.endIndex
            result += redact(url: String(tail[..<end]))
            rest = tail[end...]
        }
        return result + rest
    }

    /// Whether a query item's value is secret, judged by its name without a trailing `[...]` (so `key[]` and
    /// `auth[token]` are judged by `key` and `auth`).
    func isSecret(_ pair: EncodedQueryPair) -> Bool {
        isSecretQueryName(pair.name().prefix { $0 != "[" })
    }

    /// Whether a header field carries a credential: `Authorization`, `Proxy-Authorization`, `Cookie`, or a
    /// field this policy names. Such fields never cross to another origin, and their values are secrets.
    func isCredentialField(_ name: HTTPField.Name) -> Bool {
        name == .authorization || name == .proxyAuthorization || name == .cookie || headerNames.contains(name)
    }

    /// The secret parts of a credential field's value: the credentials after an auth scheme (and the password
    /// inside `Basic`), and every cookie value (a single cookie, `a=b`, as much as a list).
    private func credentials(inHeaderValue value: String) -> [String] {
        var result: [String] = []
        let parts = value.split(separator: " ", maxSplits: 1)
        if parts.count == 2 {
            result.append(String(parts[1]))
            if parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                result.append(String(pair[pair.index(after: colon)...]))
            }
        }
        for cookie in value.split(separator: ";") {
            if let equals = cookie.firstIndex(of: "=") {
                result.append(cookie[cookie.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return result
    }
}
