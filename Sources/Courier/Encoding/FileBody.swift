import Foundation
import OpenAPIRuntime

/// Reads a file of known size front to back in 64 KiB chunks, opening it on the first read and closing it
/// after the last, and fails when the file turns out shorter than its size (it changed after the size was
/// taken). What a file request body and a multipart form's file part are made of.
struct FileChunkReader {
    let url: URL
    let size: Int64
    private var state: State = .unopened

    private enum State {
        case unopened
        case reading(FileHandle, sent: Int64)
        case finished
    }

    static let chunkSize = 64 * 1024

    init(url: URL, size: Int64) {
        self.url = url
        self.size = size
    }

    /// The size of the regular file at `url`, or ``Unreadable`` naming it.
    static func size(of url: URL) throws -> Int64 {
        let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
        guard let values, values.isRegularFile == true, let size = values.fileSize,
            FileManager.default.isReadableFile(atPath: url.path(percentEncoded: false))
        else { throw Unreadable(path: url.path(percentEncoded: false)) }
        return Int64(size)
    }

    /// The next chunk, or `nil` once the whole file was read.
    mutating func next() throws -> ArraySlice<UInt8>? {
        let handle: FileHandle
        let sent: Int64
        switch state {
        case .finished:
            return nil
        case .unopened:
            (handle, sent) = (try FileHandle(forReadingFrom: url), 0)
        case .reading(let open, let read):
            (handle, sent) = (open, read)
        }
        let wanted = Int(Swift.min(Int64(Self.chunkSize), size - sent))
        let chunk = wanted > 0 ? try handle.read(upToCount: wanted) ?? Data() : Data()
        guard !chunk.isEmpty else {
            try? handle.close()
            state = .finished
            if wanted > 0 { throw FileChanged(path: url.path(percentEncoded: false), expected: size, found: sent) }
            return nil
        }
        state = .reading(handle, sent: sent + Int64(chunk.count))
        return ArraySlice(chunk)
    }

    /// A file to send is missing, not a regular file, or not readable.
    struct Unreadable: Error, CustomStringConvertible {
        let path: String
        var description: String { "\(path) is not a readable regular file" }
    }

    /// A file changed size between being measured and being sent.
    struct FileChanged: Error, CustomStringConvertible {
        let path: String
        let expected: Int64
        let found: Int64
        var description: String { "\(path) changed while it was being sent: expected \(expected) bytes, read \(found)" }
    }
}

/// A file's bytes as an async sequence of chunks: a request body of declared length that can be sent again
/// (each iteration reopens the file), so retries and redirects can resend it.
struct FileStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    let url: URL
    let size: Int64

    func makeAsyncIterator() -> Iterator { Iterator(reader: FileChunkReader(url: url, size: size)) }

    struct Iterator: AsyncIteratorProtocol {
        var reader: FileChunkReader

        mutating func next() async throws -> ArraySlice<UInt8>? { try reader.next() }
    }

    /// The file at `url` as a streamed body of its size, or ``FileChunkReader/Unreadable`` naming it.
    static func body(of url: URL) throws -> HTTPBody {
        let size = try FileChunkReader.size(of: url)
        return HTTPBody(FileStream(url: url, size: size), length: .known(size), iterationBehavior: .multiple)
    }
}
