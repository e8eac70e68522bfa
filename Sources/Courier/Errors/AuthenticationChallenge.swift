public import HTTPTypes

/// One challenge of a `WWW-Authenticate` (or `Proxy-Authenticate`) field (RFC 9110 §11.6.1): the scheme a
/// server asks for, and its parameters. A bearer challenge's ``error`` says why a token was refused (RFC 6750
/// §3.1): `invalid_token` (expired, revoked: a refresh may help), `insufficient_scope` (it will not).
///
/// ```swift
/// if let challenge = error.authenticationChallenges.first(where: { $0.scheme == "bearer" }),
///     challenge.error == "insufficient_scope"
/// {
///     print("needs the scope \(challenge.parameters["scope"] ?? "?")")
/// }
/// ```
public struct AuthenticationChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The scheme, lower-cased: `bearer`, `basic`, `dpop`, ….
    public var scheme: String
    /// The parameters by lower-cased name, quoted strings unquoted.
    public var parameters: [String: String]
    /// The scheme's single token instead of parameters (`Negotiate YII…`), when it has one.
    public var token68: String?

    /// A challenge.
    public init(scheme: String, parameters: [String: String] = [:], token68: String? = nil) {
        self.scheme = scheme.lowercased()
        self.parameters = parameters
        self.token68 = token68
    }

    /// The `error` parameter (RFC 6750 §3.1): `invalid_request`, `invalid_token`, `insufficient_scope`.
    public var error: String? { parameters["error"] }
    /// The `error_description` parameter: the server's explanation, for a developer.
    public var errorDescription: String? { parameters["error_description"] }

    /// `Bearer invalid_token (The access token expired)`, or the scheme and its realm. Never `token68`,
    /// which may be a credential.
    public var description: String {
        let name = scheme.prefix(1).uppercased() + scheme.dropFirst()
        if let error {
            return [name, error, errorDescription.map { "(\($0))" }].compactMap { $0 }.joined(separator: " ")
        }
        return [name, parameters["realm"].map { "realm \"\($0)\"" }].compactMap { $0 }.joined(separator: " ")
    }

    /// The challenges of every `WWW-Authenticate` field of `fields`, in order.
    public static func challenges(in fields: HTTPFields, name: HTTPField.Name = .wwwAuthenticate) -> [Self] {
        fields[values: name].flatMap(parse)
    }

    /// The challenges of one field value. Malformed parts end the parse; what came before is kept.
    static func parse(_ value: String) -> [Self] {
        var scanner = ChallengeScanner(Array(value.utf8))
        var challenges: [Self] = []
        while true {
            scanner.skip { $0 == UInt8(ascii: ",") || ChallengeScanner.isSpace($0) }
            guard let scheme = scanner.token() else { break }
            var challenge = Self(scheme: scheme)
            scanner.skip(while: ChallengeScanner.isSpace)
            // Whether the last parameter's comma was read: what follows starts the next challenge.
            var separated = false
            while let (name, value) = scanner.parameter() {
                challenge.parameters[name.lowercased()] = value
                scanner.skip(while: ChallengeScanner.isSpace)
                separated = scanner.take(UInt8(ascii: ","))
                guard separated else { break }
            }
            if challenge.parameters.isEmpty, let token68 = scanner.token68() { challenge.token68 = token68 }
            challenges.append(challenge)
            scanner.skip(while: ChallengeScanner.isSpace)
            guard separated || scanner.atEnd || scanner.peek == UInt8(ascii: ",") else { break }
        }
        return challenges
    }
}

extension APIError {
    /// The challenges of the response's `WWW-Authenticate` fields: why a `401` (or `403`) refused the
    /// request's credentials, when the server says.
    public var authenticationChallenges: [AuthenticationChallenge] {
        responseHeaders.map { AuthenticationChallenge.challenges(in: $0) } ?? []
    }
}

/// Reads RFC 9110's `token`, `quoted-string` and `token68` from bytes.
private struct ChallengeScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[index] }

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// The delimiters a `token` cannot hold.
    private static let delimiters = Set(#""(),/:;<=>?@[\]{}"#.utf8)
    /// What a `token68` holds besides letters and digits.
    private static let token68Marks = Set("-._~+/".utf8)

    /// `tchar`: visible ASCII but the delimiters `"(),/:;<=>?@[\]{}`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !delimiters.contains(byte)
    }

    mutating func skip(while matches: (UInt8) -> Bool) {
        while let byte = peek, matches(byte) { index += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func token() -> String? {
        let start = index
        skip(while: Self.isTokenByte)
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// `name = value`, or `nil` (and nothing read) when what follows is not one: the next challenge's
    /// scheme, a token68, the end.
    mutating func parameter() -> (String, String)? {
        let start = index
        skip(while: Self.isSpace)
        guard let name = token() else {
            index = start
            return nil
        }
        skip(while: Self.isSpace)
        guard take(UInt8(ascii: "=")) else {
            index = start
            return nil
        }
        skip(while: Self.isSpace)
        if let value = peek == UInt8(ascii: "\"") ? quoted() : token() { return (name, value) }
        index = start
        return nil
    }

    /// A quoted string, unquoted; `nil` when it is not closed.
    mutating func quoted() -> String? {
        let start = index
        index += 1
        var value: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                value.append(escaped)
                index += 1
            default: value.append(byte)
            }
        }
        index = start
        return nil
    }

    /// `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, then the end of the challenge.
    mutating func token68() -> String? {
        let start = index
        skip { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || Self.token68Marks.contains(byte)
        }
        guard index > start else { return nil }
        skip { $0 == UInt8(ascii: "=") }
        // It ends the challenge: what follows is the next one, or nothing.
        guard atEnd || peek == UInt8(ascii: ",") || peek.map(Self.isSpace) == true else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
