public import Foundation

/// A `multipart/form-data` body: text fields and files, from memory or streamed from disk.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Ada", name: "author")
/// try form.appendFile(at: videoURL, name: "video", contentType: "video/mp4")  // streamed, never loaded
/// let response = try await client.send(APIRequest<Upload>.post("/uploads", body: .multipart(form)))
/// ```
/// Field names and filenames are escaped as the HTML standard says (`"` → `%22`, CR → `%0D`,
/// LF → `%0A`; other characters, non-ASCII included, are sent as UTF-8). The boundary is random. The body's
/// length is declared, since every part's size is known when it is appended.
public struct MultipartFormData: Sendable {
    /// One part of the form.
    public struct Part: Sendable {
        enum Content: Sendable {
            case bytes(Data)
            case file(URL, size: Int64)
        }

        /// The field name.
        public let name: String
        /// The filename, for file parts.
        public let filename: String?
        /// The part's `Content-Type`, if any.
        public let contentType: String?
        let content: Content

        /// The size of the part's content in bytes.
        public var size: Int64 {
            switch content {
            case .bytes(let data): Int64(data.count)
            case .file(_, let size): size
            }
        }
    }

    /// The boundary between parts.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// An empty form with a random boundary (or the one given).
    public init(boundary: String = MultipartFormData.randomBoundary()) { self.boundary = boundary }

    /// A boundary of 32 random letters and digits after `courier-`.
    public static func randomBoundary() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return "courier-" + String((0..<32).map { _ in alphabet.randomElement() ?? "x" })
    }

    /// The body's `Content-Type`, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, content: .bytes(Data(value.utf8))))
    }

    /// Appends a part from memory, as a file when `filename` is given.
    public mutating func append(_ data: Data, name: String, filename: String? = nil, contentType: String? = nil) {
        let type = contentType ?? (filename == nil ? nil : "application/octet-stream")
        parts.append(Part(name: name, filename: filename, contentType: type, content: .bytes(data)))
    }

    /// Appends a file that is streamed from disk when the body is sent, never loaded whole.
    /// - Parameters:
    ///   - url: a readable regular file.
    ///   - name: the form field's name.
    ///   - filename: the name sent; the file's own name by default.
    ///   - contentType: `application/octet-stream` by default.
    /// - Throws: a `CocoaError` naming the file and why it can't be sent: missing (`fileReadNoSuchFile`), not
    ///   readable (`fileReadNoPermission`), or not a regular file (`fileReadUnknown`). A symbolic link is followed.
    public mutating func appendFile(
        at url: URL, name: String, filename: String? = nil, contentType: String = "application/octet-stream"
    ) throws {
        let size = try FileChunkReader.size(of: url)
        parts.append(
            Part(
                name: name, filename: filename ?? url.lastPathComponent, contentType: contentType,
                content: .file(url, size: size)))
    }

    /// The head of part `index`: boundary line, `Content-Disposition`, `Content-Type`, blank line.
    func head(ofPart index: Int) -> [UInt8] {
        let part = parts[index]
        var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escape(part.name))\""
        if let filename = part.filename { text += "; filename=\"\(Self.escape(filename))\"" }
        text += "\r\n"
        if let contentType = part.contentType { text += "Content-Type: \(contentType)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The closing delimiter.
    var closing: [UInt8] { Array("--\(boundary)--\r\n".utf8) }

    /// The total number of bytes the body has.
    var length: Int64 {
        parts.indices.reduce(Int64(closing.count)) { total, index in
            total + Int64(head(ofPart: index).count) + parts[index].size + 2
        }
    }

    /// The HTML standard's escaping of names and filenames in `Content-Disposition`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "%22"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
