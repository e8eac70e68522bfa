public import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

/// A `ClientTransport` that records real exchanges to a HAR 1.2 file (a "cassette") through another
/// transport, and replays them, so that tests of a client run against what a real server once said.
///
/// Secrets are redacted as Courier's errors and logs redact them, before anything is written: secret query
/// items, credential header fields, the tokens and passwords inside them and cookies (``Redaction``), in every
/// spelling, in URLs, header values and bodies, plus form fields and JSON members named like secrets, plus
/// any `secrets` given. Output is deterministic: entries sorted by request (each request's repeats in the
/// order they happened), keys sorted, no times unless ``init(file:mode:recordingThrough:matching:redaction:secrets:recordsTimes:origin:omitting:)``
/// asks for them, so cassettes diff cleanly in review.
///
/// A request matches a recorded one by method and URL (as redacted, query order ignored unless
/// ``Matching/queryOrderMatters``), and by the header fields and body ``Matching`` names; each recorded
/// exchange answers once, in order. A replayed response hands out its redacted values as `<redacted-N>`, N
/// its place in the file, so that tokens different responses issued stay different. In ``Mode/replay`` a
/// request that matches none fails with ``CassetteMiss``, naming the request and the nearest recorded one. Bodies are recorded in full: a
/// response is read to its end before the caller sees it, so record only streams that end. Recording asks
/// the server for uncompressed bodies (no `Accept-Encoding`), so that what is written can be redacted.
///
/// ```swift
/// /// Records the first run (`COURIER_CASSETTES=record`), replays it after: no server needed.
/// func octocat(base: URL, cassettes: URL) async throws -> GitHubUser {
///     try await withCassette("octocat", in: cassettes, recordingThrough: DefaultTransport.make()) { cassette in
///         let github = GitHubClient(baseURL: base, transport: cassette)
///         return try await github.user("octocat").user
///     }
/// }
/// ```
public final class CassetteTransport: ClientTransport, Sendable {
    /// What a cassette does with requests.
    public enum Mode: String, Sendable, Hashable {
        /// Every request goes to the network and is recorded; the file is rewritten when saved.
        case record
        /// Every request is answered from the file; one that matches nothing fails with ``CassetteMiss``.
        case replay
        /// Recorded requests are replayed; the others go to the network and are added to the file.
        case recordMissing

        /// The mode `COURIER_CASSETTES` names (`record`, `replay`, `recordMissing`), else `fallback`: re-record
        /// a suite's cassettes with `COURIER_CASSETTES=record swift test`.
        public static func fromEnvironment(default fallback: Mode = .replay) -> Mode {
            ProcessInfo.processInfo.environment["COURIER_CASSETTES"].flatMap(Mode.init(rawValue:)) ?? fallback
        }
    }

    /// What a request must share with a recorded one to be answered by it, besides method and URL.
    public struct Matching: Sendable, Hashable {
        /// Whether `?a=1&b=2` and `?b=2&a=1` differ.
        public var queryOrderMatters: Bool
        /// Header fields whose values must be equal (as redacted).
        public var headers: Set<HTTPField.Name>
        /// Whether the request bodies (as redacted) must be equal.
        public var body: Bool
        /// Whether the scheme, host and port must be equal: off, a cassette recorded against a server on one
        /// port replays for a client of the same API anywhere.
        public var origin: Bool

        /// A matching rule.
        public init(
            queryOrderMatters: Bool = false, headers: Set<HTTPField.Name> = [], body: Bool = false, origin: Bool = true
        ) {
            self.queryOrderMatters = queryOrderMatters
            self.headers = headers
            self.body = body
            self.origin = origin
        }

        /// Method and URL, query order ignored.
        public static let `default` = Matching()
        /// Everything: how recorded entries are ordered in the file.
        static let exact = Matching(queryOrderMatters: true, headers: [], body: true)
    }

    /// The cassette's file.
    public let file: URL
    /// What the cassette does with requests.
    public let mode: Mode
    private let network: (any ClientTransport)?
    private let matching: Matching
    private let redaction: Redaction
    private let secrets: [String]
    private let recordsTimes: Bool
    private let origin: String?
    private let omitted: Set<HTTPField.Name>
    private let state: Mutex<State>

    private struct State {
        /// The exchanges read from the file, as written.
        var entries: [Recorded] = []
        /// The exchanges recorded since, as they happened: redacted only when saved, with every secret any of
        /// them carried (a token a login response returns under an unlisted name is a secret once a later
        /// request sends it).
        var recorded: [Exchange] = []
    }

    /// One recorded exchange, before redaction.
    private struct Exchange {
        var request: HTTPRequest
        var url: String
        var requestBody: Data?
        var response: HTTPResponse
        var responseBody: Data
        var started: Date
        var milliseconds: Double
        var sequence: Int
    }

    /// One exchange in the cassette, and whether it has answered a request yet.
    private struct Recorded {
        var entry: HARFile.Entry
        var key: String
        var sequence: Int
        var used = false
    }

    /// A cassette at `file`. `recordingThrough` is the transport that reaches the network when recording;
    /// `redaction` should be the client's (its ``APIClient/Configuration/redaction``) and `secrets` any other
    /// values that must never be written (a password sent in a JSON body under another name). Replaying
    /// reads `file` now and fails if it can't; recording starts from nothing (``Mode/record``) or from the
    /// file when there is one (``Mode/recordMissing``).
    ///
    /// Written cassettes can be made to stay the same from one recording to the next: `origin` is written in
    /// place of the scheme, host and port the recorded requests went to, wherever it appears (URLs, fields,
    /// bodies), for a server on a port chosen at random each run (replay with a base URL on `origin`; meant
    /// for a cassette of one server); `omitting` names fields that are not written (a rate limit's reset
    /// time, a `User-Agent` naming the recording machine).
    public init(
        file: URL, mode: Mode, recordingThrough network: (any ClientTransport)? = nil, matching: Matching = .default,
        redaction: Redaction = .default, secrets: [String] = [], recordsTimes: Bool = false, origin: URL? = nil,
        omitting: Set<HTTPField.Name> = []
    ) throws {
        self.file = file
        self.origin = origin.map { $0.absoluteString.trimmingSuffix("/") }
        self.omitted = omitting
        self.mode = mode
        self.network = network
        self.matching = matching
        self.redaction = redaction
        self.secrets = secrets
        self.recordsTimes = recordsTimes
        var state = State()
        let exists = FileManager.default.fileExists(atPath: file.path(percentEncoded: false))
        if mode == .replay || (mode == .recordMissing && exists) {
            let har = try JSONDecoder().decode(HARFile.self, from: Data(contentsOf: file))
            state.entries = har.log.entries.enumerated().map { index, entry in
                Recorded(entry: entry, key: Self.key(of: entry, matching: matching), sequence: index)
            }
        }
        self.state = Mutex(state)
    }

    /// Answers `request` from the cassette, or records it through the network transport.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var requestBytes: Data?
        if let body { requestBytes = try await Data(collecting: body, upTo: Self.bodyLimit) }
        let url = baseURL.absoluteString.trimmingSuffix("/") + (request.path ?? "")
        let requestSecrets = redaction.secretValues(in: [request], extra: secrets)
        let harRequest = harRequest(request, url: url, body: requestBytes, secrets: requestSecrets)
        let key = Self.key(of: harRequest, matching: matching)
        if mode != .record, let (entry, index) = claim(key) {
            return Self.replay(entry, number: index + 1, method: request.method)
        }
        guard mode != .replay, let network else {
            throw CassetteMiss(request: "\(request.method.rawValue) \(harRequest.url)", nearest: nearest(to: key))
        }
        let started = Date()
        // Asked for without compression, so that the body is written as text that can be redacted (a secret
        // inside gzip would go through unseen); the request is recorded as it was.
        var sent = request
        sent.headerFields[.acceptEncoding] = nil
        let (response, responseBody) = try await network.send(
            sent, body: requestBytes.map { HTTPBody($0) }, baseURL: baseURL, operationID: operationID)
        var responseBytes: Data?
        if let responseBody { responseBytes = try await Data(collecting: responseBody, upTo: Self.bodyLimit) }
        let milliseconds = Date().timeIntervalSince(started) * 1000
        state.withLock { state in
            state.recorded.append(
                Exchange(
                    request: request, url: url, requestBody: requestBytes, response: response,
                    responseBody: responseBytes ?? Data(), started: started, milliseconds: milliseconds,
                    sequence: state.recorded.count))
        }
        return (response, responseBytes.map { HTTPBody($0) })
    }

    /// Writes the cassette (in ``Mode/record``, and in ``Mode/recordMissing`` when something new was
    /// recorded), creating its folder if needed. What was recorded is redacted now, with every secret any of
    /// the recorded exchanges carried.
    public func save() throws {
        let (loaded, recorded) = state.withLock { ($0.entries, $0.recorded) }
        guard mode == .record || (mode == .recordMissing && !recorded.isEmpty) else { return }
        // Secret-named JSON members of any body count too: a session ID a login returns under `token` may come
        // back in a later request's path, where no rule would see it.
        let memberValues = recorded.flatMap { exchange in
            Self.secretMembers(in: exchange.requestBody, redaction: redaction)
                + Self.secretMembers(in: exchange.responseBody, redaction: redaction)
        }
        let allSecrets = redaction.secretValues(
            in: recorded.map(\.request), responses: recorded.map(\.response), extra: secrets + memberValues)
        let new = recorded.map { exchange in
            let request = harRequest(
                exchange.request, url: exchange.url, body: exchange.requestBody, secrets: allSecrets)
            return Recorded(
                entry: harEntry(request, exchange, secrets: allSecrets), key: Self.key(of: request, matching: .exact),
                sequence: loaded.count + exchange.sequence)
        }
        let old = loaded.map {
            Recorded(entry: $0.entry, key: Self.key(of: $0.entry, matching: .exact), sequence: $0.sequence)
        }
        // Sorted by the whole request (as redacted), each request's repeats in the order they happened.
        let entries = (old + new).sorted { ($0.key, $0.sequence) < ($1.key, $1.sequence) }.map(\.entry)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var data = try HARFile(log: .init(entries: entries)).encoded()
        if let origin {
            // Longest first, so that `:8080` is never replaced inside `:80801`.
            let recordedOrigins = Set(recorded.compactMap { Self.origin(of: $0.url) }).sorted { $0.count > $1.count }
            let text = recordedOrigins.reduce(String(decoding: data, as: UTF8.self)) {
                $0.replacingOccurrences(of: $1, with: origin)
            }
            data = Data(text.utf8)
        }
        try data.write(to: file, options: .atomic)
    }

    /// The recorded requests no request has matched yet (`METHOD URL`, redacted), in the file's order: after a
    /// replayed test, an empty list says the client made every request the recording did.
    public var unplayed: [String] {
        state.withLock { $0.entries.filter { !$0.used }.map { Self.described($0.key) } }
    }

    /// The largest body a cassette records or reads.
    static let bodyLimit = 64 * 1024 * 1024

    // MARK: - Matching

    /// The first unused recorded exchange matching `key`, and its place in the file.
    private func claim(_ key: String) -> (HARFile.Entry, Int)? {
        state.withLock { state in
            guard
                let index = state.entries.indices.first(where: {
                    !state.entries[$0].used && state.entries[$0].key == key
                })
            else { return nil }
            state.entries[index].used = true
            return (state.entries[index].entry, state.entries[index].sequence)
        }
    }

    /// The recorded request closest to `key` (edit distance), for a miss's message.
    private func nearest(to key: String) -> String? {
        let keys = state.withLock { $0.entries.map(\.key) }
        return keys.min { Self.distance($0, key) < Self.distance($1, key) }.map(Self.described)
    }

    /// What a request is matched by: method, URL (query sorted unless its order matters), chosen fields, body.
    private static func key(of request: HARFile.Request, matching: Matching) -> String {
        var url = unnumbered(request.url)
        if !matching.origin, let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            url = String(rest[(rest.firstIndex(of: "/") ?? rest.endIndex)...])
        }
        if !matching.queryOrderMatters, let question = url.firstIndex(of: "?") {
            let query = url[url.index(after: question)...].split(separator: "&").sorted().joined(separator: "&")
            url = String(url[...question]) + query
        }
        var key = "\(request.method) \(url)"
        for name in matching.headers.map(\.canonicalName).sorted() {
            let values = request.headers.filter { $0.name.lowercased() == name }.map(\.value)
            key += "\n\(name): \(values.joined(separator: ", "))"
        }
        if matching.body { key += "\n\n" + unnumbered(request.postData?.text ?? "") }
        return key
    }

    private static func key(of entry: HARFile.Entry, matching: Matching) -> String {
        key(of: entry.request, matching: matching)
    }

    /// A key as a message shows it: its first line, and how many more lines (fields, body) it has.
    private static func described(_ key: String) -> String {
        let lines = key.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 1 ? "\(lines[0]) (with \(lines.dropFirst().joined(separator: " ")))" : key
    }

    /// The Levenshtein distance between two keys, by UTF-8 byte.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    // MARK: - HAR

    private func harRequest(_ request: HTTPRequest, url: String, body: Data?, secrets: [String]) -> HARFile.Request {
        let redactedURL = Self.replacing(secrets, in: redaction.redact(url: url))
        let query = redactedURL.firstIndex(of: "?").map { redactedURL[redactedURL.index(after: $0)...] } ?? ""
        let contentType = request.headerFields[.contentType]
        var fields = request.headerFields
        // A trace's identifiers differ on every run.
        for name in ["traceparent", "tracestate", "baggage"] { HTTPField.Name(name).map { fields[$0] = nil } }
        for name in omitted { fields[name] = nil }
        let postData = body.map { body in
            let redacted = Self.canonicalJSON(
                redaction.redactedBody(body, contentType: contentType, secrets: secrets), contentType: contentType)
            return (
                HARFile.PostData(mimeType: contentType ?? "", text: HARFile.text(of: redacted).text), redacted.count
            )
        }
        return HARFile.Request(
            method: request.method.rawValue, url: redactedURL, headers: headers(fields, secrets: secrets),
            queryString: query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                // HAR readers show query items decoded, as DevTools writes them.
                func decoded(_ text: Substring) -> String {
                    Self.replacing(secrets, in: text.removingPercentEncoding ?? String(text))
                }
                return .init(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
            },
            postData: postData?.0,
            // The size written, not the size sent: the difference would tell a secret's length.
            bodySize: postData?.1 ?? 0)
    }

    private func harEntry(_ request: HARFile.Request, _ exchange: Exchange, secrets: [String]) -> HARFile.Entry {
        let response = exchange.response
        let contentType = response.headerFields[.contentType]
        let redacted = redaction.redactedBody(exchange.responseBody, contentType: contentType, secrets: secrets)
        let (text, encoding) = HARFile.text(of: redacted)
        let milliseconds = recordsTimes ? exchange.milliseconds : 0
        var fields = response.headerFields
        // The body may have changed length; and the time a response was sent is a timestamp.
        fields[.contentLength] = nil
        if !recordsTimes { fields[.date] = nil }
        for name in omitted { fields[name] = nil }
        return HARFile.Entry(
            startedDateTime: recordsTimes ? exchange.started.formatted(.iso8601) : "1970-01-01T00:00:00.000Z",
            time: milliseconds,
            request: request,
            response: HARFile.Response(
                status: response.status.code, statusText: response.status.reasonPhrase,
                headers: headers(fields, secrets: secrets),
                content: .init(size: redacted.count, mimeType: contentType ?? "", text: text, encoding: encoding),
                redirectURL: response.headerFields[.location].map {
                    Self.replacing(secrets, in: redaction.redact(url: $0))
                }
                    ?? "",
                bodySize: redacted.count),
            timings: .init(send: 0, wait: milliseconds, receive: 0))
    }

    private func headers(_ fields: HTTPFields, secrets: [String]) -> [HARFile.NameValue] {
        zip(fields, redaction.redact(headers: fields)).map { original, field in
            let value =
                switch field.name {
                case .location, .contentLocation: redaction.redact(url: field.value)
                // A cookie keeps its name and attributes, so that a replayed one is stored and sent again.
                case .setCookie: Self.redactingCookieValues(original.value, attributes: true)
                case .cookie: Self.redactingCookieValues(original.value, attributes: false)
                default: field.value
                }
            return .init(name: field.name.rawName, value: Self.replacing(secrets, in: value))
        }
    }

    /// `Set-Cookie: id=…; Path=/` (`attributes`) or `Cookie: a=…; b=…` with every cookie's value redacted (an
    /// empty one, which deletes a cookie, stays empty). A `Set-Cookie`'s `Expires` date would change at every
    /// recording and expire the cookie on replay after that date: one in the past (a deletion) is written
    /// `Max-Age=0`, one in the future dropped, so the replayed cookie lasts the session.
    private static func redactingCookieValues(_ value: String, attributes: Bool) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        let pairs = attributes ? parts.prefix(1) : parts[...]
        let redacted = pairs.map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return Redaction.placeholder }
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? String(pair) : "\(pair[...equals])\(Redaction.placeholder)"
        }
        guard attributes else { return redacted.joined(separator: ";") }
        let kept = parts.dropFirst().compactMap { attribute -> String? in
            let trimmed = attribute.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("expires=") else { return String(attribute) }
            let date = Self.cookieDate(String(trimmed.dropFirst("expires=".count)))
            return date.flatMap { $0 < Date() ? " Max-Age=0" : nil }
        }
        return (redacted + kept).joined(separator: ";")
    }

    /// An `Expires` date as servers write it: RFC 9110's IMF-fixdate, or the older `-` forms.
    private static func cookieDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz",
        ] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The string values of JSON members named like secrets (``Redaction/isSecretQueryName(_:)``), at any
    /// depth, when `body` is JSON.
    private static func secretMembers(in body: Data?, redaction: Redaction) -> [String] {
        guard let body, let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return [] }
        var found: [String] = []
        func visit(_ value: Any, named name: String?) {
            if let dictionary = value as? [String: Any] {
                for (key, member) in dictionary { visit(member, named: key) }
            } else if let array = value as? [Any] {
                for element in array { visit(element, named: name) }
            } else if let text = value as? String, let name, redaction.isSecretQueryName(name), !text.isEmpty {
                found.append(text)
            }
        }
        visit(object, named: nil)
        return found
    }

    /// JSON written with sorted keys, so that a body encoded from a dictionary (whose order changes from one
    /// process to the next) records the same text every time and matches however it was ordered; other bodies
    /// as they are.
    private static func canonicalJSON(_ body: Data, contentType: String?) -> Data {
        guard contentType?.lowercased().contains("json") == true,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let sorted = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return body }
        return sorted
    }

    /// `text` with the numbers a replay added to placeholders (`<redacted-3>`, as sent or percent-encoded)
    /// taken away again, and every placeholder written one way, so that a replayed token sent back in a path,
    /// query or body matches the recording.
    private static func unnumbered(_ text: String) -> String {
        guard text.contains("redacted") else { return text }
        return text.replacing(/(?:<|%3[Cc])redacted(?:-[0-9]+)?(?:>|%3[Ee])/) { _ in Redaction.placeholder }
    }

    /// The scheme, host and port at the start of `url`.
    private static func origin(of url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        return String(url[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? url.endIndex)])
    }

    /// `text` with every one of `secrets` (longest first) replaced by the placeholder.
    private static func replacing(_ secrets: [String], in text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.placeholder) }
    }

    /// The recorded response of `entry`, the `number`th in the file. Its redacted values are handed out as
    /// `<redacted-number>`: all tokens were `<redacted>` once written, and a token a refresh returned must still
    /// differ from the one it replaced (a client never retries with the credential that just failed).
    private static func replay(_ entry: HARFile.Entry, number: Int, method: HTTPRequest.Method) -> (
        HTTPResponse, HTTPBody?
    ) {
        let numbered = "<redacted-\(number)>"
        func renumbered(_ text: String) -> String {
            text.replacingOccurrences(of: Redaction.placeholder, with: numbered)
        }
        var fields = HTTPFields()
        for header in entry.response.headers {
            if let name = HTTPField.Name(header.name) {
                fields.append(HTTPField(name: name, value: renumbered(header.value)))
            }
        }
        let status = HTTPResponse.Status(code: entry.response.status, reasonPhrase: entry.response.statusText)
        let content = entry.response.content
        let body = HARFile.bytes(
            of: content.encoding == "base64" ? content.text : content.text.map(renumbered), encoding: content.encoding)
        let bodiless = method == .head || status == .noContent || status == .notModified
        return (HTTPResponse(status: status, headerFields: fields), bodiless && body.isEmpty ? nil : HTTPBody(body))
    }
}

/// A request a replaying cassette has no recorded exchange for.
public struct CassetteMiss: Error, CustomStringConvertible, Sendable {
    /// The request, as `METHOD URL` (redacted).
    public let request: String
    /// The closest recorded request, if the cassette has any.
    public let nearest: String?

    /// What is missing, and the nearest recorded request.
    public var description: String {
        "the cassette has no recorded exchange for \(request)"
            + (nearest.map { "; the nearest recorded one is \($0)" } ?? "; it has none")
    }
}

/// Runs `body` with the cassette `name` (`name.har` in `directory`) and saves it afterwards when it recorded: a
/// test uses a cassette in one line. `mode` defaults to what `COURIER_CASSETTES` names, else replay; a `mode`
/// given here wins over the variable. `network` is made only when the mode may record.
public func withCassette<T>(
    _ name: String, in directory: URL, mode: CassetteTransport.Mode = .fromEnvironment(),
    recordingThrough network: @autoclosure () -> any ClientTransport, matching: CassetteTransport.Matching = .default,
    redaction: Redaction = .default, secrets: [String] = [], origin: URL? = nil, omitting: Set<HTTPField.Name> = [],
    _ body: (CassetteTransport) async throws -> T
) async throws -> T {
    let cassette = try CassetteTransport(
        file: directory.appending(path: "\(name).har"), mode: mode,
        recordingThrough: mode == .replay ? nil : network(), matching: matching, redaction: redaction,
        secrets: secrets, origin: origin, omitting: omitting)
    let result = try await body(cassette)
    try cassette.save()
    return result
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
