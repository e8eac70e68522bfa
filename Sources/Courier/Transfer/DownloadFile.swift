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

    init(destination: URL) throws {
        let folder = destination.deletingLastPathComponent()
        let name = ".\(destination.lastPathComponent).\(UUID().uuidString).download"
        temporary = folder.appending(path: name)
        self.destination = destination
        guard FileManager.default.createFile(atPath: temporary.path(percentEncoded: false), contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path(percentEncoded: false)])
        }
        handle = try FileHandle(forWritingTo: temporary)
    }

    func write(_ bytes: ArraySlice<UInt8>) throws {
        try handle.write(contentsOf: bytes)
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

    /// Closes and deletes the temporary file.
    func discard() {
        try? handle.close()
        try? FileManager.default.removeItem(at: temporary)
    }
}
