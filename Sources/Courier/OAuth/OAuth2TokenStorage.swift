public import Crypto
public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an ``OAuth2Session`` keeps a user's tokens between runs of the app.
///
/// ``save(_:)`` replaces the saved token at once, never in part: with refresh-token rotation the old refresh
/// token is spent when the new one arrives, so losing the new one half-way would sign the user out.
public protocol OAuth2TokenStorage: Sendable {
    /// The saved token, or `nil` when none is.
    func load() async throws -> OAuth2Token?
    /// Replaces the saved token.
    func save(_ token: OAuth2Token) async throws
    /// Removes the saved token (signing out, or a refresh token the server refused).
    func remove() async throws
}

/// Tokens kept in memory only: gone when the process ends.
public final class InMemoryOAuth2TokenStorage: OAuth2TokenStorage {
    private let token: Mutex<OAuth2Token?>

    /// A storage holding `token`, if any.
    public init(_ token: OAuth2Token? = nil) { self.token = Mutex(token) }

    /// The token held.
    public func load() -> OAuth2Token? { token.withLock { $0 } }
    /// Holds `token` instead.
    public func save(_ token: OAuth2Token) { self.token.withLock { $0 = token } }
    /// Holds none.
    public func remove() { token.withLock { $0 = nil } }
}

/// Tokens in a file, encrypted and authenticated with AES-GCM under a 256-bit key the caller keeps (from the
/// Keychain, a secret manager, an environment variable): for Linux, where there is no Keychain.
///
/// ```swift
/// let key = SymmetricKey(data: keyBytes)  // 32 bytes the app keeps secret
/// let storage = try EncryptedFileOAuth2TokenStorage(file: tokensURL, key: key)
/// ```
/// The file is created readable by its owner only (`0600`), written to the disk, and renamed over the old one,
/// so a reader never sees half a token. A file changed by anyone else, or encrypted under another key, fails to
/// load with an error that says so.
public struct EncryptedFileOAuth2TokenStorage: OAuth2TokenStorage {
    /// The file.
    public let file: URL
    private let key: SymmetricKey

    /// What the encryption authenticates besides the token: a file made for something else does not load.
    private static let context = Data("Courier OAuth2Token 1".utf8)

    /// A storage in `file`, encrypted with `key`.
    /// - Throws: ``APIError/Kind/invalidRequest`` when `key` is not 256 bits long.
    public init(file: URL, key: SymmetricKey) throws(APIError) {
        guard key.bitCount == 256 else {
            throw APIError(
                .invalidRequest, phase: .building,
                message: "an encrypted token file needs a 256-bit key, not \(key.bitCount) bits")
        }
        self.file = file
        self.key = key
    }

    /// The token in the file, or `nil` when there is no file.
    public func load() throws(APIError) -> OAuth2Token? {
        let sealed: Data
        do {
            sealed = try Data(contentsOf: file)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { return nil }
            throw failure("could not be read", error)
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let json = try AES.GCM.open(box, using: key, authenticating: Self.context)
            return try Self.decoder.decode(OAuth2Token.self, from: json)
        } catch {
            throw failure("could not be decrypted (another key, or the file was changed)", error)
        }
    }

    /// Encrypts `token` into a new file and renames it over the old one.
    public func save(_ token: OAuth2Token) throws(APIError) {
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            let json = try Self.encoder.encode(token)
            guard let sealed = try AES.GCM.seal(json, using: key, authenticating: Self.context).combined else {
                throw CocoaError(.fileWriteUnknown)
            }
            try Self.writeOwnerOnly(sealed, to: temporary.path)
            guard rename(temporary.path, file.path) == 0 else { throw Self.posixError() }
            Self.sync(folder: file.deletingLastPathComponent().path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw failure("could not be written", error)
        }
    }

    /// Deletes the file, if there is one.
    public func remove() throws(APIError) {
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            if FileManager.default.fileExists(atPath: file.path) { throw failure("could not be removed", error) }
        }
    }

    /// Writes `data` to a new file at `path`, created readable by its owner only, and flushes it to the disk.
    private static func writeOwnerOnly(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw posixError() }
        defer { close(descriptor) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) throws in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError()
                }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw posixError() }
    }

    /// Flushes a folder's entries (the rename), as far as the file system allows.
    private static func sync(folder: String) {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func posixError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }

    private func failure(_ what: String, _ error: any Error) -> APIError {
        APIError(
            .fileAccess, phase: .preparing, message: "the token file \(file.path) \(what): \(error)",
            underlyingError: error)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
