public import Courier
public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import Synchronization

/// A `ClientTransport` that records real exchanges to a HAR 1.2 file (a "cassette") through another
/// transport, and replays them, so that tests of a client run against what a real server once said.
///
/// Secrets are redacted by the rules Courier's errors and logs follow, before anything is written (a
/// credential's scheme and a cookie's name are kept, where a log hides the whole field): secret query
/// items, credential header fields, the tokens and passwords inside them and cookies (``Redaction``), in every
/// spelling, in URLs, header values and bodies, plus form fields and JSON members named like secrets, plus
/// any `secrets` given. Output is deterministic: entries sorted by request (each request's repeats in the
/// order they happened), keys sorted, JSON request bodies with sorted keys, no times unless asked for
/// (``init(file:mode:recordingThrough:matching:redaction:secrets:recordsTimes:writtenOrigin:omitting:)``), so
/// cassettes diff cleanly in review.
///
/// A request matches a recorded one by method and URL (as redacted, query order ignored unless
/// ``Matching/queryOrderMatters``), and by the header fields and body ``Matching`` names; each recorded
/// exchange answers once, in order. Each distinct secret is written under one name for the whole file,
/// `<redacted:N>`, with the structure around it kept (`Bearer <redacted:1>`); a replay hands back the values
/// the replaying requests sent under those names, read from the parts (path, query item, field, body) that
/// otherwise read as recorded, so it decodes what the recording decoded, and hands out the others (a token
/// the server issued) as written. In ``Mode/replay`` a request that matches none fails with
/// ``CassetteMiss``, naming the request and the nearest recorded one.
/// Bodies are recorded in full: a response is read to its end before the caller sees it, so record only
/// streams that end. Recording sends requests without `Accept-Encoding`, and writes them as sent, so that
/// bodies arrive as text that can be redacted (URLSession on Linux asks for compression by itself and hands
/// the body over decoded, so what is written is text there too).
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
    private let secrets: [String]
    /// How exchanges are written down: redacted, without what changes from one recording to the next.
    private let writer: CassetteWriter
    private let state: Mutex<State>

    private struct State {
        /// The exchanges read from the file, as written.
        var entries: [Recorded] = []
        /// The exchanges recorded since, as they happened: redacted only when saved, with every secret any of
        /// them carried (a token a login response returns under an unlisted name is a secret once a later
        /// request sends it).
        var recorded: [Exchange] = []
        /// Secret-named JSON members of the bodies seen so far: a later request may send one back in its path.
        var memberSecrets: Set<String> = []
        /// What the numbered placeholders of the file stood for in the requests replayed so far: a replayed
        /// response hands these values back where the recording had them.
        var restored: [Int: String] = [:]
    }

    /// One recorded exchange, before redaction.
    struct Exchange {
        var request: HTTPRequest
        var url: String
        /// The scheme, host and port of the base URL it was sent with.
        var base: String?
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
    /// Written cassettes can be made to stay the same from one recording to the next: `writtenOrigin`'s scheme,
    /// host and port are written in place of the base URL's wherever they appear whole (URLs, fields, bodies),
    /// for a server on a port chosen at random each run; replay with a base URL on `writtenOrigin`. (Other
    /// origins, such as a redirect's, stay; ``Matching/origin`` is about matching, not writing.) `omitting`
    /// names fields that are not written (a rate limit's reset time, a `User-Agent` naming the machine).
    public init(
        file: URL, mode: Mode, recordingThrough network: (any ClientTransport)? = nil, matching: Matching = .default,
        redaction: Redaction = .default, secrets: [String] = [], recordsTimes: Bool = false,
        writtenOrigin: URL? = nil, omitting: Set<HTTPField.Name> = []
    ) throws {
        self.file = file
        writer = CassetteWriter(
            redaction: redaction, recordsTimes: recordsTimes,
            origin: writtenOrigin.flatMap(CassetteWriter.origin(of:)), omitted: omitting)
        self.mode = mode
        self.network = network
        self.matching = matching
        self.secrets = secrets
        var state = State()
        let exists = FileManager.default.fileExists(atPath: file.path(percentEncoded: false))
        if mode == .replay || (mode == .recordMissing && exists) {
            let har = try JSONDecoder().decode(HARFile.self, from: Data(contentsOf: file))
            state.entries = har.log.entries.enumerated().map { index, entry in
                Recorded(entry: entry, key: Self.key(of: entry.request, matching: matching), sequence: index)
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
        let url = baseURL.textWithoutTrailingSlash + (request.path ?? "")
        let base = CassetteWriter.origin(of: baseURL)
        // Written down as it will be when saved, so that it matches what an earlier recording wrote.
        let members = writer.secretMembers(in: requestBytes)
        let known = state.withLock { state in
            state.memberSecrets.formUnion(members)
            return state.memberSecrets
        }
        let names = Pseudonyms(secrets: writer.redaction.secrets(in: [request], extra: secrets + known.sorted()))
        let harRequest = writer.harRequest(request, url: url, body: requestBytes, names: names, base: base)
        let key = Self.key(of: harRequest, matching: matching)
        if mode != .record, let (entry, index) = claim(key) {
            // What this request sent where the recording has placeholders is what those placeholders were.
            let sent = writer.harRequest(request, url: url, body: requestBytes, names: nil, base: base)
            let restored = state.withLock { state in
                state.restored.merge(Self.values(of: entry.request, in: sent)) { $1 }
                return state.restored
            }
            return Self.replay(entry, number: index + 1, method: request.method, restoring: restored)
        }
        guard mode != .replay, let network else {
            throw CassetteMiss(
                request: "\(request.method.rawValue) \(Placeholder.unnumbered(harRequest.url))",
                nearest: nearest(to: key))
        }
        let started = Date()
        // Asked for without compression, so that the body is written as text that can be redacted (a secret
        // inside gzip would go through unseen); the request is recorded as it was sent.
        var sent = request
        sent.headerFields[.acceptEncoding] = nil
        let (response, responseBody) = try await network.send(
            sent, body: requestBytes.map { HTTPBody($0) }, baseURL: baseURL, operationID: operationID)
        var responseBytes: Data?
        if let responseBody { responseBytes = try await Data(collecting: responseBody, upTo: Self.bodyLimit) }
        let milliseconds = Date().timeIntervalSince(started) * 1000
        let responseMembers = writer.secretMembers(in: responseBytes)
        state.withLock { state in
            state.memberSecrets.formUnion(responseMembers)
            state.recorded.append(
                Exchange(
                    request: sent, url: url, base: base, requestBody: requestBytes, response: response,
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
        let memberValues = state.withLock { $0.memberSecrets }.sorted()
        let names = Pseudonyms(
            secrets: writer.redaction.secrets(
                in: recorded.map(\.request), responses: recorded.map(\.response), extra: secrets + memberValues))
        let new = recorded.map { exchange in
            let request = writer.harRequest(
                exchange.request, url: exchange.url, body: exchange.requestBody, names: names, base: exchange.base)
            return Recorded(
                entry: writer.harEntry(request, exchange, names: names),
                key: Self.key(of: request, matching: .exact), sequence: loaded.count + exchange.sequence)
        }
        let old = loaded.map {
            Recorded(entry: $0.entry, key: Self.key(of: $0.entry.request, matching: .exact), sequence: $0.sequence)
        }
        // Sorted by the whole request (as redacted), each request's repeats in the order they happened; then
        // each secret numbered where it first appears.
        let written = try loaded.map { String(decoding: try JSONEncoder().encode($0.entry), as: UTF8.self) }
        let renumbering = Renumbering(after: Renumbering.highest(in: written))
        let entries = (old + new).sorted { ($0.key, $0.sequence) < ($1.key, $1.sequence) }.map {
            $0.entry.renumbered(by: renumbering)
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try HARFile(log: .init(entries: entries)).encoded().write(to: file, options: .atomic)
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
        var url = Placeholder.unnumbered(request.url)
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
            var values = request.headers.filter { $0.name.lowercased() == name }.map(\.value)
            // A credential as redacted, with or without its scheme: older cassettes wrote it whole.
            if name == "authorization" || name == "proxy-authorization" {
                values = values.map {
                    Placeholder.unnumbered($0).hasSuffix(Redaction.placeholder) ? "<credential>" : $0
                }
            }
            key += "\n\(name): \(values.joined(separator: ", "))"
        }
        if matching.body { key += "\n\n" + Placeholder.unnumbered(request.postData?.text ?? "") }
        return key
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

    /// The recorded response of `entry`, the `number`th in the file, with the values of `restored` where
    /// their placeholders are. A placeholder of an older cassette, `<redacted>` for every secret, is handed out
    /// as `<redacted-number>`, so that a token a refresh returned still differs from the one it replaced (a
    /// client never retries with the credential that just failed).
    private static func replay(
        _ entry: HARFile.Entry, number: Int, method: HTTPRequest.Method, restoring restored: [Int: String]
    ) -> (HTTPResponse, HTTPBody?) {
        let numbered = "<redacted-\(number)>"
        func replayed(_ text: String, _ context: Placeholder.Context) -> String {
            Placeholder.restoring(
                restored, in: text.replacingOccurrences(of: Redaction.placeholder, with: numbered), context: context)
        }
        var fields = HTTPFields()
        for header in entry.response.headers {
            if let name = HTTPField.Name(header.name) {
                fields.append(HTTPField(name: name, value: replayed(header.value, .field)))
            }
        }
        let status = HTTPResponse.Status(code: entry.response.status, reasonPhrase: entry.response.statusText)
        let content = entry.response.content
        let body = HARFile.bytes(
            of: content.encoding == "base64"
                ? content.text : content.text.map { replayed($0, .body(mimeType: content.mimeType)) },
            encoding: content.encoding)
        let bodiless = method == .head || status == .noContent || status == .notModified
        return (HTTPResponse(status: status, headerFields: fields), bodiless && body.isEmpty ? nil : HTTPBody(body))
    }

    /// What the numbered placeholders of a recorded request stood for in `sent`, the same request as sent now
    /// (unredacted): its path, query items, header fields and body compared part by part, each read where the
    /// recording has the same text around the placeholder.
    static func values(of recorded: HARFile.Request, in sent: HARFile.Request) -> [Int: String] {
        func path(_ url: String) -> String {
            let afterScheme = url.range(of: "://").map { url[$0.upperBound...] } ?? url[...]
            return String(
                afterScheme[(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)...].prefix { $0 != "?" })
        }
        var values = Placeholder.bindings(recorded: path(recorded.url), live: path(sent.url), context: .path)
        func pairs(_ recorded: [HARFile.NameValue], _ sent: [HARFile.NameValue]) {
            var seen: [String: Int] = [:]
            for item in recorded where item.value.contains("redacted") {
                let name = item.name.lowercased()
                let occurrence = seen[name, default: 0]
                seen[name] = occurrence + 1
                let same = sent.filter { $0.name.lowercased() == name }
                guard occurrence < same.count else { continue }
                values.merge(Placeholder.bindings(recorded: item.value, live: same[occurrence].value, context: .field))
                {
                    first, _ in first
                }
            }
        }
        pairs(recorded.queryString, sent.queryString)
        pairs(recorded.headers, sent.headers)
        if let text = recorded.postData?.text, let sentText = sent.postData?.text {
            let context = Placeholder.Context.body(mimeType: recorded.postData?.mimeType ?? "")
            values.merge(Placeholder.bindings(recorded: text, live: sentText, context: context)) { first, _ in first }
        }
        return values
    }
}

/// A request a replaying cassette has no recorded exchange for. Through an ``APIClient`` it reaches the caller
/// as an `APIError` of kind `.transport` whose `underlyingError` is this miss.
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
    redaction: Redaction = .default, secrets: [String] = [], writtenOrigin: URL? = nil,
    omitting: Set<HTTPField.Name> = [], _ body: (CassetteTransport) async throws -> T
) async throws -> T {
    let cassette = try CassetteTransport(
        file: directory.appending(path: "\(name).har"), mode: mode,
        recordingThrough: mode == .replay ? nil : network(), matching: matching, redaction: redaction,
        secrets: secrets, writtenOrigin: writtenOrigin, omitting: omitting)
    let result = try await body(cassette)
    try cassette.save()
    return result
}
