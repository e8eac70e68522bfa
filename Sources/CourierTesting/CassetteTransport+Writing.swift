import Courier
import Foundation
import HTTPTypes

/// How a ``CassetteTransport`` writes exchanges down: redacted by the client's rules and the exchanges' own
/// secrets, without what would change from one recording to the next (trace identifiers, times unless asked,
/// the omitted fields, a test server's random port when an origin is given), JSON request bodies with sorted
/// keys.
struct CassetteWriter: Sendable {
    let redaction: Redaction
    let recordsTimes: Bool
    /// The scheme, host and port written in place of the base URL's.
    let origin: String?
    let omitted: Set<HTTPField.Name>

    /// `request` as a cassette writes it, each secret under its name in `names`; as it was sent (rewritten
    /// and canonical all the same) when `names` is `nil`, which is what a replay reads a live request's
    /// secrets from.
    func harRequest(_ request: HTTPRequest, url: String, body: Data?, names: Pseudonyms?, base: String?)
        -> HARFile.Request
    {
        let rewrite = rewriting(base)
        let redactedURL = rewrite(redacted(url: url, names))
        let query = redactedURL.firstIndex(of: "?").map { redactedURL[redactedURL.index(after: $0)...] } ?? ""
        let contentType = request.headerFields[.contentType]
        var fields = request.headerFields
        // A trace's identifiers differ on every run.
        for name in ["traceparent", "tracestate", "baggage"] { HTTPField.Name(name).map { fields[$0] = nil } }
        for name in omitted { fields[name] = nil }
        let postData = body.map { body in
            let redacted = rewrite(
                Self.canonicalJSON(self.redacted(body: body, contentType: contentType, names), contentType: contentType)
            )
            return (
                HARFile.PostData(mimeType: contentType ?? "", text: HARFile.text(of: redacted).text), redacted.count
            )
        }
        return HARFile.Request(
            method: request.method.rawValue, url: redactedURL, headers: headers(fields, names, rewrite),
            queryString: query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                // HAR readers show query items decoded, as DevTools writes them.
                func decoded(_ text: Substring) -> String { scrub(text.removingPercentEncoding ?? String(text), names) }
                return .init(name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
            },
            postData: postData?.0,
            // The size written, not the size sent: the difference would tell a secret's length.
            bodySize: postData?.1 ?? 0)
    }

    func harEntry(_ request: HARFile.Request, _ exchange: CassetteTransport.Exchange, names: Pseudonyms)
        -> HARFile.Entry
    {
        let rewrite = rewriting(exchange.base)
        let response = exchange.response
        let contentType = response.headerFields[.contentType]
        let redacted = rewrite(redacted(body: exchange.responseBody, contentType: contentType, names))
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
                headers: headers(fields, names, rewrite),
                content: .init(size: redacted.count, mimeType: contentType ?? "", text: text, encoding: encoding),
                redirectURL: response.headerFields[.location].map { rewrite(self.redacted(url: $0, names)) } ?? "",
                bodySize: redacted.count),
            timings: .init(send: 0, wait: milliseconds, receive: 0))
    }

    /// Header fields as written: a credential keeps its scheme (`Bearer <redacted:1>`) and a cookie its name
    /// and attributes (so that a replayed one is stored and sent again); every other secret field's value and
    /// every secret anywhere else is named.
    private func headers(_ fields: HTTPFields, _ names: Pseudonyms?, _ rewrite: Rewrite) -> [HARFile.NameValue] {
        fields.map { field in
            guard let names else { return .init(name: field.name.rawName, value: rewrite(field.value)) }
            let value =
                switch field.name {
                case .location, .contentLocation: redaction.redact(url: field.value, naming: names.name)
                case .setCookie: Self.redactingCookieValues(field.value, attributes: true, naming: names.name)
                case .cookie: Self.redactingCookieValues(field.value, attributes: false, naming: names.name)
                case .authorization, .proxyAuthorization:
                    if let scheme = Redaction.authScheme(of: field.value) {
                        // The scheme and the spaces after it, then the credentials' name.
                        String(scheme) + field.value.dropFirst(scheme.count).prefix { $0 == " " }
                            + names.name(field.value.dropFirst(scheme.count).drop { $0 == " " })
                    } else {
                        names.name(field.value[...])
                    }
                case _ where redaction.headerNames.contains(field.name): names.name(field.value[...])
                default: field.value
                }
            return .init(name: field.name.rawName, value: rewrite(scrub(value, names)))
        }
    }

    /// `text` with every spelling of every secret in `names` named.
    private func scrub(_ text: String, _ names: Pseudonyms?) -> String {
        guard let names else { return text }
        return Redaction.replacing(names.spellings, in: text, naming: names.name)
    }

    /// A URL with its secret query items and every secret in it named.
    private func redacted(url: String, _ names: Pseudonyms?) -> String {
        guard let names else { return url }
        return scrub(redaction.redact(url: url, naming: names.name), names)
    }

    private func redacted(body: Data, contentType: String?, _ names: Pseudonyms?) -> Data {
        guard let names else { return body }
        return redaction.redactedBody(body, contentType: contentType, secrets: names.spellings, naming: names.name)
    }

    // MARK: - What changes from one recording to the next

    /// Writes a text (or a body that is UTF-8 text) with the base origin replaced.
    struct Rewrite {
        let from: [(spelling: String, replacement: String)]

        func callAsFunction(_ text: String) -> String {
            from.reduce(text) { CassetteWriter.replacingOrigin($1.spelling, with: $1.replacement, in: $0) }
        }

        func callAsFunction(_ body: Data) -> Data {
            guard !from.isEmpty, let text = String(data: body, encoding: .utf8) else { return body }
            return Data(callAsFunction(text).utf8)
        }
    }

    /// The rewrite of an exchange sent with a base URL on `base`: its origin becomes ``origin`` as written,
    /// JSON-escaped (`http:\/\/…`) and percent-encoded (either hex case), and then its authority where it
    /// stands alone (a `Host` field, a server echoing `host:port`). Other origins (a redirect elsewhere) stay
    /// as they are.
    private func rewriting(_ base: String?) -> Rewrite {
        guard let origin, let base, base != origin else { return Rewrite(from: []) }
        func spellings(_ text: String) -> [String] {
            let escaped = text.replacingOccurrences(of: "/", with: "\\/")
            let encoded = text.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: "/", with: "%2F")
            let lower = text.replacingOccurrences(of: ":", with: "%3a").replacingOccurrences(of: "/", with: "%2f")
            let authority = String(text[(text.range(of: "://")?.upperBound ?? text.startIndex)...])
            let encodedAuthority = authority.replacingOccurrences(of: ":", with: "%3A")
            let lowerAuthority = authority.replacingOccurrences(of: ":", with: "%3a")
            return [text, escaped, encoded, lower, authority, encodedAuthority, lowerAuthority]
        }
        return Rewrite(from: zip(spellings(base), spellings(origin)).map { (spelling: $0, replacement: $1) })
    }

    /// `text` with `spelling` replaced where it is a whole origin or authority: not next to what could
    /// continue a host or port (`http://localhost` is not the start of `http://localhost:8081`, nor
    /// `127.0.0.1:80` the end of `10.127.0.0.1:80`).
    static func replacingOrigin(_ spelling: String, with replacement: String, in text: String) -> String {
        guard text.contains(spelling) else { return text }
        func continuesHost(_ scalar: Unicode.Scalar?) -> Bool {
            scalar.map { CharacterSet.alphanumerics.contains($0) || ".:-".unicodeScalars.contains($0) } == true
        }
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: spelling) {
            let whole =
                !continuesHost(rest[found.upperBound...].unicodeScalars.first)
                && !continuesHost(rest[..<found.lowerBound].unicodeScalars.last ?? result.unicodeScalars.last)
            result += rest[..<found.lowerBound]
            result += whole ? replacement : String(rest[found])
            rest = rest[found.upperBound...]
        }
        return result + rest
    }

    /// The scheme, host and port of `url`, lower-cased, the port only when it was given.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host(percentEncoded: true)?.lowercased() else {
            return nil
        }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (url.port.map { ":\($0)" } ?? "")
    }

    // MARK: - Secrets

    /// `Set-Cookie: id=…; Path=/` (`attributes`) or `Cookie: a=…; b=…` with every cookie's value redacted (an
    /// empty one, which deletes a cookie, stays empty). A `Set-Cookie`'s `Expires` date would change at every
    /// recording and expire the cookie on replay after that date: it is dropped when `Max-Age` is given (which
    /// wins), written `Max-Age=0` when past (a deletion), dropped when future (the replayed cookie lasts the
    /// session), and kept as it is when it can't be read.
    static func redactingCookieValues(
        _ value: String, attributes: Bool, naming: (Substring) -> String = Redaction.plainName
    ) -> String {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        let pairs = attributes ? parts.prefix(1) : parts[...]
        let redacted = pairs.map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return naming(pair) }
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? String(pair) : "\(pair[...equals])\(naming(value[...]))"
        }
        guard attributes else { return redacted.joined(separator: ";") }
        let named = parts.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let hasMaxAge = named.contains { $0.hasPrefix("max-age=") }
        let kept = zip(parts.dropFirst(), named).compactMap { attribute, lowered -> String? in
            guard lowered.hasPrefix("expires=") else { return String(attribute) }
            if hasMaxAge { return nil }
            let text = attribute.trimmingCharacters(in: .whitespaces).dropFirst("expires=".count)
            guard let date = CookieDate.parse(text) else { return String(attribute) }
            return date < Date() ? " Max-Age=0" : nil
        }
        return (redacted + kept).joined(separator: ";")
    }

    /// The string values of JSON members named like secrets (``Redaction/isSecretQueryName(_:)``), at any
    /// depth, when `body` is JSON: only ones that look like credentials (8 characters or more, no white
    /// space), as each becomes a secret everywhere in the file (`{"key": "name"}` must not hide every "name").
    func secretMembers(in body: Data?) -> [String] {
        guard let body, let first = body.first(where: { !(Character(UnicodeScalar($0)).isWhitespace) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let object = try? JSONSerialization.jsonObject(with: body)
        else { return [] }
        var found: [String] = []
        func visit(_ value: Any, named name: String?) {
            if let dictionary = value as? [String: Any] {
                for (key, member) in dictionary { visit(member, named: key) }
            } else if let array = value as? [Any] {
                for element in array { visit(element, named: name) }
            } else if let text = value as? String, let name, text.count >= 8,
                !text.contains(where: \.isWhitespace), redaction.isSecretQueryName(name)
            {
                found.append(text)
            }
        }
        visit(object, named: nil)
        return found
    }

    /// JSON written with sorted keys, so that a body encoded from a dictionary (whose order changes from one
    /// process to the next) records the same text every time and matches however it was ordered; other bodies
    /// as they are. Re-serialised, so the text is equivalent JSON, not always the bytes sent (`1.0` is `1`).
    private static func canonicalJSON(_ body: Data, contentType: String?) -> Data {
        guard contentType?.lowercased().contains("json") == true,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
            let sorted = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return body }
        return sorted
    }
}
