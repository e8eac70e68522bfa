import Foundation

/// The parts of HAR 1.2 (the HTTP Archive format browsers and proxies export) that a cassette writes and
/// reads: every field the format requires, plus the optional ones a cassette has something for.
struct HARFile: Codable {
    var log: Log

    struct Log: Codable {
        var version = "1.2"
        var creator = Creator()
        var entries: [Entry]
    }

    struct Creator: Codable {
        var name = "Courier CassetteTransport"
        var version = "1.0"
    }

    struct Entry: Codable {
        var startedDateTime: String
        /// Milliseconds; 0 unless the cassette records times.
        var time: Double
        var request: Request
        var response: Response
        var cache = Cache()
        var timings: Timings
        var comment: String?
    }

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion = "HTTP/1.1"
        var cookies: [NameValue] = []
        var headers: [NameValue]
        var queryString: [NameValue]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int
    }

    struct Response: Codable {
        var status: Int
        var statusText: String
        var httpVersion = "HTTP/1.1"
        var cookies: [NameValue] = []
        var headers: [NameValue]
        var content: Content
        var redirectURL: String
        var headersSize = -1
        var bodySize: Int
    }

    struct NameValue: Codable, Equatable {
        var name: String
        var value: String
    }

    struct PostData: Codable {
        var mimeType: String
        var params: [NameValue] = []
        /// The body as UTF-8, or as base64 when it isn't.
        var text: String
    }

    struct Content: Codable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?
    }

    struct Cache: Codable {}

    struct Timings: Codable {
        var send: Double
        var wait: Double
        var receive: Double
    }
}

extension HARFile {
    /// Text for a body: UTF-8 as it is, anything else as base64 (`encoding` says which).
    static func text(of body: Data) -> (text: String, encoding: String?) {
        if let text = String(data: body, encoding: .utf8) { return (text, nil) }
        return (body.base64EncodedString(), "base64")
    }

    /// The bytes a body's text stands for.
    static func bytes(of text: String?, encoding: String?) -> Data {
        guard let text else { return Data() }
        if encoding == "base64" { return Data(base64Encoded: text) ?? Data() }
        return Data(text.utf8)
    }

    /// The file as written: keys sorted and indented, so that cassettes diff cleanly.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
