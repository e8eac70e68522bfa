package import Hummingbird

/// The bytes served by `/bytes/{n}` and `/drip`: byte `i` of a body is `UInt8(i % 251)`.
///
/// Bodies are written in chunks that are slices of one shared buffer, so a body of any size costs
/// no more memory than a single chunk.
package enum DeterministicBytes {
    /// The pattern repeats every 251 bytes (a prime, so it never lines up with power-of-two chunk sizes).
    package static let period = 251
    /// The largest chunk `write` hands to the response writer at once.
    package static let maximumChunkSize = 64 * 1024

    /// `maximumChunkSize + period` bytes of the pattern: every chunk is a slice of it.
    private static let source: ByteBuffer = {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(maximumChunkSize + period)
        for index in 0..<(maximumChunkSize + period) {
            buffer.writeInteger(UInt8(index % period))
        }
        return buffer
    }()

    /// The `length` bytes (at most `maximumChunkSize`) of the pattern that start at body offset `offset`.
    package static func chunk(at offset: Int, length: Int) -> ByteBuffer {
        let start = offset % period
        var chunk = source
        chunk.moveWriterIndex(to: start + min(length, maximumChunkSize))
        chunk.moveReaderIndex(to: start)
        return chunk
    }

    /// Writes the `count` bytes of the pattern that start at body offset `offset`, in chunks of at most
    /// `maximumChunkSize`, waiting for the connection to take each one.
    package static func write(count: Int, from offset: Int = 0, to writer: inout any ResponseBodyWriter) async throws {
        var written = 0
        while written < count {
            let length = min(maximumChunkSize, count - written)
            try await writer.write(chunk(at: offset + written, length: length))
            written += length
        }
    }

    /// Thrown from a body writer to end a response early, on purpose: Hummingbird then closes the connection
    /// mid-body, so a client sees a body cut short.
    package struct CutShort: Error {
        package init() {}
    }
}
