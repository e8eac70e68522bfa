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

    /// API keys, tokens, passwords and signatures in queries; credentials, cookies and CSRF tokens in headers.
    public static let `default` = Redaction(
        queryNames: [
            "key", "api_key", "apikey", "api-key", "access_token", "accesstoken", "token", "auth", "client_secret",
            "password", "passwd", "secret", "signature", "sig", "sessionid", "refresh_token",
            // Presigned S3 and Google Cloud Storage URLs.
            "x-amz-signature", "x-amz-credential", "x-amz-security-token", "x-goog-signature", "x-goog-credential",
        ],
        headerNames: [
            .authorization, .proxyAuthorization, .cookie, .setCookie, .xAPIKey, .xAuthToken, .xCSRFToken, .xXSRFToken,
            .xXSRFTokenTornado, .xCSRFTokenRails,
        ]
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

    /// `url` with the value of every secret query item (an empty one hides nothing and stays empty) and any
    /// user information replaced by ``placeholder``.
    public func redact(url: String) -> String {
        redact(url: url, naming: Self.plainName)
    }

    /// `url` with the value of every secret query item, and any user information, replaced by what `naming`
    /// calls it (given the value as it appears, percent-encoded). An empty value is left as it is.
    package func redact(url: String, naming: (Substring) -> String) -> String {
        // Searched by byte: the delimiters are ASCII, and a search by Character (or Foundation's `range(of:)`)
        // cost several thousand instructions per URL.
        let url = Self.withoutUserInfo(url, naming: naming)
        guard let queryStart = url.utf8.firstIndex(of: UInt8(ascii: "?")) else { return url }
        let fragmentStart = url.utf8[queryStart...].firstIndex(of: UInt8(ascii: "#")) ?? url.endIndex
        let query = url[url.index(after: queryStart)..<fragmentStart]
        let pairs = EncodedQueryPair.split(query, keepingEmpty: true).map { pair -> String in
            // An empty value hides nothing (and may be a URL a text cut short before its placeholder).
            guard let value = pair.encodedValue, !value.isEmpty, isSecret(pair) else {
                return String(pair.text)
            }
            return "\(pair.encodedName)=\(naming(value))"
        }
        return url[...queryStart] + pairs.joined(separator: "&") + url[fragmentStart...]
    }

    /// ``placeholder``, whatever the secret: how errors and logs name every secret.
    package static func plainName(_: Substring) -> String { placeholder }

    /// `scheme://user:password@host…` as `scheme://<redacted>@host…`.
    private static func withoutUserInfo(_ url: String, naming: (Substring) -> String) -> String {
        guard let (_, authority) = url.utf8.schemeAndAuthority(), let at = authority.lastIndex(of: UInt8(ascii: "@"))
        else { return url }
        return url[..<authority.startIndex] + naming(url[authority.startIndex..<at]) + url[at...]
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
    /// spelling is hidden whole. A credential field's value is listed whole only when it has no auth scheme
    /// and cookie names to keep (`Bearer <redacted>`). What errors, logs and cURL output hide; also for tools
    /// that write exchanges down, such as CourierTesting's cassettes.
    public func secretValues(in requests: [HTTPRequest], responses: [HTTPResponse] = [], extra: [String] = [])
        -> [String]
    {
        Set(secrets(in: requests, responses: responses, extra: extra).joined()).sorted { $0.count > $1.count }
    }

    /// The secrets of ``secretValues(in:responses:extra:)`` one by one: each distinct secret's spellings,
    /// longest first, the secrets in the order of their values. An `Authorization` value's scheme and a
    /// `Cookie` value's names are not part of any secret (`Bearer <redacted>`), unless a credential in it is
    /// too short to be hidden by itself.
    package func secrets(in requests: [HTTPRequest], responses: [HTTPResponse] = [], extra: [String] = [])
        -> [[String]]
    {
        // Each secret, and the spellings it was seen in besides those ``spellings(of:json:)`` finds.
        var values: [String: Set<String>] = [:]
        func add(_ value: String, seenAs others: [String] = []) { values[value, default: []].formUnion(others) }
        for value in extra { add(value) }
        // The cookies a response sets are secrets as soon as they arrive.
        for response in responses {
            for line in response.headerFields[values: .setCookie] {
                let pair = line.prefix { $0 != ";" }
                if let equals = pair.firstIndex(of: "=") {
                    add(pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
                }
            }
        }
        for request in requests {
            if let path = request.path, let queryStart = path.firstIndex(of: "?") {
                for pair in EncodedQueryPair.split(path[path.index(after: queryStart)...]) {
                    guard let value = pair.encodedValue, isSecret(pair) else { continue }
                    // The value as sent is a spelling of the decoded one; `+` read as a space may be another secret.
                    add(pair.value() ?? String(value), seenAs: [String(value)])
                    if let spaced = pair.value(plusIsSpace: true) { add(spaced) }
                }
            }
            for field in request.headerFields where isCredentialField(field.name) {
                let parts = credentials(inHeaderValue: field.value, of: field.name)
                for part in parts { add(part) }
                if parts.isEmpty || parts.contains(where: { $0.count < 3 }) || !Self.isStructured(field.name) {
                    add(field.value)
                }
            }
        }
        let json = JSONEncoder()
        return values.sorted { $0.key < $1.key }.compactMap { value, seen in
            // A value shorter than 3 characters is hidden only where it was seen spelled longer (`%41%42`).
            let generated = value.count >= 3 ? Self.spellings(of: value, json: json) : []
            let spelled = generated.union(seen).filter { $0.count >= 3 }
            return spelled.isEmpty ? nil : spelled.sorted { ($0.count, $0) > ($1.count, $1) }
        }
    }

    /// Whether a credential field's value has a structure around its secrets that may be shown: the scheme of
    /// `Authorization` and `Proxy-Authorization`, the cookie names of `Cookie`.
    private static func isStructured(_ name: HTTPField.Name) -> Bool {
        name == .authorization || name == .proxyAuthorization || name == .cookie
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

    /// `text` with every one of `secrets` replaced by ``placeholder`` (or what `naming` calls it), and secret
    /// query items redacted in every URL it mentions (a transport's error may quote a URL that middleware added
    /// a key to).
    func scrub(_ text: String, secrets: [String], naming: (Substring) -> String = Redaction.plainName) -> String {
        redactURLs(in: Self.replacing(secrets, in: text, naming: naming), naming: naming)
    }

    /// `text` with every one of `secrets` replaced by ``placeholder``, in order (``secretValues(in:responses:extra:)``
    /// lists the longest spelling first, so it is hidden whole).
    package static func replacing(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: placeholder) }
    }

    /// `text` with every one of `secrets` replaced by what `naming` calls it, in order.
    package static func replacing(_ secrets: [String], in text: String, naming: (Substring) -> String) -> String {
        secrets.reduce(text) { $1.isEmpty ? $0 : $0.replacingOccurrences(of: $1, with: naming($1[...])) }
    }

    /// Every `http://` or `https://` URL in `text` passed through ``redact(url:)``, in one pass.
    func redactURLs(in text: String, naming: (Substring) -> String = Redaction.plainName) -> String {
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
            result += redact(url: String(tail[..<end]), naming: naming)
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
    /// inside `Basic`) unless it is a `Cookie`, and every cookie value (a single cookie, `a=b`, as much as a
    /// list; a part without `=` whole) unless it is an `Authorization`.
    private func credentials(inHeaderValue value: String, of name: HTTPField.Name) -> [String] {
        var result: [String] = []
        if name != .cookie, let scheme = Self.authScheme(of: value) {
            let credentials = value.dropFirst(scheme.count).trimmingCharacters(in: .whitespaces)
            result.append(credentials)
            if scheme.lowercased() == "basic", let data = Data(base64Encoded: credentials),
                let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            {
                result.append(String(pair[pair.index(after: colon)...]))
            }
        }
        guard name != .authorization && name != .proxyAuthorization else { return result }
        for cookie in value.split(separator: ";") {
            let part = cookie.firstIndex(of: "=").map { cookie[cookie.index(after: $0)...] } ?? cookie
            result.append(part.trimmingCharacters(in: .whitespaces))
        }
        return result
    }

    /// The auth scheme a credential value starts with (`Bearer` of `Bearer abc`), when its first word is one:
    /// a scheme registered with IANA or in common use, or a word of letters alone; `nil` for a value with no
    /// second word, or whose first word may be part of the secret (`k3y 51g`).
    package static func authScheme(of value: String) -> Substring? {
        guard let space = value.firstIndex(of: " ") else { return nil }
        let word = value[..<space]
        let rest = value[space...].drop { $0 == " " }
        guard !rest.isEmpty, !word.isEmpty else { return nil }
        let known = [
            "aws4-hmac-sha256", "scram-sha-1", "scram-sha-256", "privatetoken", "dpop", "gnap", "sso-key", "apikey",
            "api-key",
        ]
        guard known.contains(word.lowercased()) || (word.count <= 16 && word.allSatisfy { $0.isASCII && $0.isLetter })
        else { return nil }
        return word
    }
}
