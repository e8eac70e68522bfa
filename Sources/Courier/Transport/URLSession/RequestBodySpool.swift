import Foundation
import OpenAPIRuntime

/// A request body read ahead of sending, for URLSession: in memory when short, else in a temporary file
/// URLSession streams from, so a large upload never sits in memory.
enum RequestBodySpool {
    case none
    case data(Data)
    case file(URL)

    /// Bodies up to this size stay in memory.
    static let memoryLimit = 1024 * 1024

    /// The spooled file to delete once the task is done, if any.
    var file: URL? {
        if case .file(let url) = self { url } else { nil }
    }

    /// Reads `body` to its end.
    static func read(_ body: HTTPBody?) async throws -> RequestBodySpool {
        guard let body else { return .none }
        var data = Data()
        if case .known(let length) = body.length, length <= memoryLimit { data.reserveCapacity(Int(length)) }
        var iterator = body.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            data.append(contentsOf: chunk)
            if data.count > memoryLimit { return try await spill(data, rest: &iterator) }
        }
        return .data(data)
    }

    /// Writes `head` and the rest of the body to a new temporary file.
    private static func spill(_ head: Data, rest: inout HTTPBody.AsyncIterator) async throws -> RequestBodySpool {
        let file = FileManager.default.temporaryDirectory.appending(path: "courier-upload-\(UUID().uuidString)")
        let path = file.path(percentEncoded: false)
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.write(contentsOf: head)
            while let chunk = try await rest.next() { try handle.write(contentsOf: chunk) }
            return .file(file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }
}
