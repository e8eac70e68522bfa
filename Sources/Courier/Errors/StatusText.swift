import HTTPTypes

/// A status as text, `404 Not Found`, with the standard reason phrase when the response carried none
/// (URLSession on Linux and HTTP/2 give none). The phrases are swift-http-types' own.
enum StatusText {
    static func describe(_ status: HTTPResponse.Status) -> String {
        let phrase = status.reasonPhrase.isEmpty ? standardPhrases[status.code] ?? "" : status.reasonPhrase
        return phrase.isEmpty ? "\(status.code)" : "\(status.code) \(phrase)"
    }

    private static let standardPhrases: [Int: String] = {
        let known: [HTTPResponse.Status] = [
            .continue, .switchingProtocols, .earlyHints, .ok, .created, .accepted, .nonAuthoritativeInformation,
            .noContent, .resetContent, .partialContent, .multipleChoices, .movedPermanently, .found, .seeOther,
            .notModified, .temporaryRedirect, .permanentRedirect, .badRequest, .unauthorized, .forbidden, .notFound,
            .methodNotAllowed, .notAcceptable, .proxyAuthenticationRequired, .requestTimeout, .conflict, .gone,
            .lengthRequired, .preconditionFailed, .contentTooLarge, .uriTooLong, .unsupportedMediaType,
            .rangeNotSatisfiable, .expectationFailed, .misdirectedRequest, .unprocessableContent, .tooEarly,
            .upgradeRequired, .preconditionRequired, .tooManyRequests, .requestHeaderFieldsTooLarge,
            .unavailableForLegalReasons, .internalServerError, .notImplemented, .badGateway, .serviceUnavailable,
            .gatewayTimeout, .httpVersionNotSupported, .networkAuthenticationRequired,
        ]
        return Dictionary(known.map { ($0.code, $0.reasonPhrase) }, uniquingKeysWith: { first, _ in first })
    }()
}
