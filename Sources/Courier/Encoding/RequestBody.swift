public import Foundation
public import OpenAPIRuntime

/// What a request carries: nothing, an encoded value, form fields, raw bytes, a file, a multipart form or a
/// stream.
///
/// ```swift
/// let issue: RequestBody = .json(NewIssue(title: title))
/// let login: RequestBody = .form(["email": email, "password": password])
/// ```
public struct RequestBody: Sendable {
    enum Storage: Sendable {
        case empty
        case encodable(any Encodable & Sendable, encoder: (any RequestBodyEncoder)?)
        case form(Query)
        case bytes(Data, contentType: String)
        case stream(HTTPBody, contentType: String)
        case file(URL, contentType: String)
        case multipart(MultipartFormData)
        indirect case reportingProgress(Storage, @Sendable (TransferProgress) -> Void)
    }

    let storage: Storage

    /// No body (the default).
    public static let empty = RequestBody(storage: .empty)

    /// `value` encoded with the client's `JSONEncoder`, sent as `application/json`.
    public static func json(_ value: some Encodable & Sendable) -> RequestBody {
        RequestBody(storage: .encodable(value, encoder: nil))
    }

    /// `value` encoded with `encoder`, sent with the encoder's content type.
    public static func encoded(_ value: some Encodable & Sendable, using encoder: some RequestBodyEncoder)
        -> RequestBody
    {
        RequestBody(storage: .encodable(value, encoder: encoder))
    }

    /// Form fields, sent as `application/x-www-form-urlencoded; charset=utf-8` exactly as the WHATWG URL
    /// standard serialises them (a space becomes `+`; `+`, `&` and `=` are percent-encoded).
    public static func form(_ fields: Query) -> RequestBody { RequestBody(storage: .form(fields)) }

    /// Raw bytes with their content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(storage: .bytes(data, contentType: contentType))
    }

    /// Text, UTF-8 encoded.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(storage: .bytes(Data(text.utf8), contentType: contentType))
    }

    /// A streamed body, sent as it is produced. A body that can be iterated only once is not replayed
    /// (for example by a retry).
    public static func stream(_ body: HTTPBody, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(storage: .stream(body, contentType: contentType))
    }

    /// A file's contents as the whole body (a `PUT` to a presigned URL, a binary upload), streamed from disk in
    /// 64 KiB chunks with its length declared, never loaded whole, and read again when a retry or a redirect
    /// resends it. The file is checked when the request is built: a missing or unreadable one fails with
    /// ``APIError/Kind/fileAccess`` naming it; one that changes size while it is sent fails the request.
    /// ```swift
    /// let upload = APIRequest<Void>.put("/v1/backups/latest", body: .file(archive, contentType: "application/gzip"))
    /// try await client.send(upload)
    /// ```
    public static func file(_ url: URL, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(storage: .file(url, contentType: contentType))
    }

    /// A `multipart/form-data` body (see ``MultipartFormData``), streamed, with its length declared.
    public static func multipart(_ form: MultipartFormData) -> RequestBody { RequestBody(storage: .multipart(form)) }

    /// This body, calling `progress` as the transport reads it (bytes sent so far, and the total when known).
    /// ```swift
    /// let body = RequestBody.multipart(form).reportingProgress { print($0.fractionCompleted ?? 0) }
    /// ```
    public func reportingProgress(_ progress: @escaping @Sendable (TransferProgress) -> Void) -> RequestBody {
        RequestBody(storage: .reportingProgress(storage, progress))
    }

    /// Whether this is ``empty``.
    public var isEmpty: Bool {
        if case .empty = storage { return true }
        return false
    }
}
