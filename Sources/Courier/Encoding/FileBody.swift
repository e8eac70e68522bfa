import Foundation
import OpenAPIRuntime

/// Reads a file of known size front to back in 64 KiB chunks, opening it on the first read and closing it
/// after the last, and fails when the file turns out shorter or longer than that size (it changed after the
/// size was taken). What a file request body and a multipart form's file part are made of.
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

    /// The size of the regular file at `url` (a symbolic link is followed), or a `CocoaError` naming it and
    /// saying why it can't be sent: missing (`fileReadNoSuchFile`), not readable (`fileReadNoPermission`), or
    /// not a regular file (`fileReadUnknown`).
    static func size(of url: URL) throws -> Int64 {
        let resolved = url.resolvingSymlinksInPath()
        let path = resolved.path(percentEncoded: false)
        func failure(_ code: CocoaError.Code, _ reason: String) -> CocoaError {
            CocoaError(code, userInfo: [NSFilePathErrorKey: path, NSLocalizedDescriptionKey: "\(path) \(reason)"])
        }
        guard FileManager.default.fileExists(atPath: path) else { throw failure(.fileReadNoSuchFile, "does not exist") }
        let values = try? resolved.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
        guard let values, values.isRegularFile == true, let size = values.fileSize else {
            throw failure(.fileReadUnknown, "is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw failure(.fileReadNoPermission, "is not readable")
        }
        return Int64(size)
    }

    /// Whether `error` is a file to send that couldn't be read, or changed while it was sent.
    static func isFileFailure(_ error: any Error) -> Bool {
        if error is FileChanged { return true }
        guard let error = error as? CocoaError else { return false }
        return [.fileReadNoSuchFile, .fileReadNoPermission, .fileReadUnknown].contains(error.code)
    }

    /// The next chunk, or `nil` once the whole file was read; ``FileChanged`` when the file turns out
    /// shorter or longer than its size, so that no request is sent cut short or with a wrong length.
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
        do {
            let wanted = Int(Swift.min(Int64(Self.chunkSize), size - sent))
            // At the end, one byte more says whether the file grew.
            let chunk = try read(upTo: Swift.max(wanted, 1), from: handle)
            if wanted > 0 && !chunk.isEmpty {
                state = .reading(handle, sent: sent + Int64(chunk.count))
                return chunk[...]
            }
            try? handle.close()
            state = .finished
            guard chunk.isEmpty && wanted == 0 else {
                let found = sent + Int64(chunk.count)
                throw FileChanged(path: url.path(percentEncoded: false), expected: size, found: found)
            }
            return nil
        } catch {
            try? handle.close()
            state = .finished
            throw error
        }
    }

    /// Up to `count` bytes from `handle`, fewer only at the end of the file: read straight into the array a
    /// chunk is (`FileHandle.read(upToCount:)` reads into `Data`, which a chunk would then copy again: a third
    /// copy of every byte of an upload).
    private func read(upTo count: Int, from handle: FileHandle) throws -> [UInt8] {
        let descriptor = handle.fileDescriptor
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count, let base = buffer.baseAddress {
                let got = Foundation.read(descriptor, base + initialized, count - initialized)
                if got > 0 {
                    initialized += got
                } else if got == 0 {
                    return
                } else {
                    let code = errno
                    if code == EINTR { continue }
                    failure = code == 0 ? EIO : code
                    return
                }
            }
        }
        guard failure == 0 else {
            throw CocoaError(
                .fileReadUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path(percentEncoded: false),
                    NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO),
                    NSLocalizedDescriptionKey: "\(url.path(percentEncoded: false)) could not be read: "
                        + String(cString: strerror(failure)),
                ])
        }
        return bytes
    }

    /// A file changed size between being measured and being sent.
    struct FileChanged: Error, CustomStringConvertible {
        let path: String
        let expected: Int64
        let found: Int64
        var description: String {
            let read = found > expected ? "more" : "\(found)"
            return "\(path) changed while it was being sent: expected \(expected) bytes, read \(read)"
        }
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

    /// The file at `url` as a streamed body of its size, or an error naming it (``FileChunkReader/size(of:)``).
    static func body(of url: URL) throws -> HTTPBody {
        let size = try FileChunkReader.size(of: url)
        return HTTPBody(FileStream(url: url, size: size), length: .known(size), iterationBehavior: .multiple)
    }
}
