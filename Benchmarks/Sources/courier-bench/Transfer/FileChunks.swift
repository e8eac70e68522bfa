import Foundation
import NIOCore
import NIOFoundationCompat

/// A file read in `ByteBuffer`s of `chunkSize` bytes as they are asked for: the body raw AsyncHTTPClient
/// streams. 64 KiB by default, the size Courier's multipart body reads files in, so that the two differ in
/// their layers and not in how often they read.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let file: URL
    var chunkSize = 64 * 1024

    /// Reads the file with `FileHandle`, opening it on the first call and closing it at the end.
    struct AsyncIterator: AsyncIteratorProtocol {
        let file: URL
        let chunkSize: Int
        var handle: FileHandle?
        var finished = false

        /// The next chunk, or `nil` once the whole file has been read.
        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            let handle = try handle ?? FileHandle(forReadingFrom: file)
            self.handle = handle
            guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else {
                try handle.close()
                finished = true
                return nil
            }
            return ByteBuffer(data: data)
        }
    }

    /// An iterator that opens the file when first asked for bytes.
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(file: file, chunkSize: chunkSize) }
}
