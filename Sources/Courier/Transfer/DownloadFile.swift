import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A download in progress: bytes go to a hidden temporary file beside the destination, which replaces the
/// destination only once every byte has arrived. A failed download leaves the destination untouched.
struct DownloadFile {
    let destination: URL
    let temporary: URL
    private let handle: FileHandle
    /// Bytes already in the file when it was opened (a resumed download).
    let existingBytes: Int64

    /// A new temporary file, or the partial file of `resume` opened for appending when it still holds
    /// exactly the bytes it claims.
    init(destination: URL, resuming resume: DownloadResumeData? = nil) throws {
        self.destination = destination
        if let resume, let handle = try? FileHandle(forWritingTo: resume.partialFile),
            (try? handle.seekToEnd()).map(Int64.init) == resume.bytesReceived
        {
            self.temporary = resume.partialFile
            self.handle = handle
            self.existingBytes = resume.bytesReceived
            return
        }
        resume?.discard()
        let name = ".\(destination.lastPathComponent).\(UUID().uuidString).download"
        temporary = destination.deletingLastPathComponent().appending(path: name)
        guard FileManager.default.createFile(atPath: temporary.path(percentEncoded: false), contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path(percentEncoded: false)])
        }
        handle = try FileHandle(forWritingTo: temporary)
        existingBytes = 0
    }

    func write(_ bytes: ArraySlice<UInt8>) throws {
        try handle.write(contentsOf: bytes)
    }

    /// Appends `bytes`, which stay the caller's.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: bytes)
    }

    /// Empties the file, when the server sends the whole resource instead of the rest.
    func restart() throws {
        try handle.truncate(atOffset: 0)
    }

    /// Closes the file and moves it into place in one step (`rename(2)`), replacing any file already there.
    func finish() throws {
        try handle.close()
        guard rename(temporary.path(percentEncoded: false), destination.path(percentEncoded: false)) == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: destination.path(percentEncoded: false),
                    NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
                ])
        }
    }

    /// Closes the file and keeps it, for a later resume.
    func keep() { try? handle.close() }

    /// Closes and deletes the temporary file.
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}
