public import Foundation
import Synchronization

/// Where an ``HTTPCache`` keeps responses: a map from a URL to the responses stored for it (one per `Vary`
/// variant). Implement it to share a cache between processes (Redis, a database); Courier ships
/// ``MemoryCacheStore`` and ``DiskCacheStore``. Calls may come from many tasks at once.
public protocol HTTPCacheStore: Sendable {
    /// The responses stored for `url`, newest first; empty when there are none.
    func responses(for url: String) async throws -> [CachedResponse]
    /// Replaces the responses stored for `url` (an empty list removes them).
    func setResponses(_ responses: [CachedResponse], for url: String) async throws
    /// Removes every stored response.
    func removeAll() async throws
}

/// An in-memory ``HTTPCacheStore`` bounded by bytes: past ``maxBytes`` (bodies and heads together), the
/// least recently used URLs go first.
public final class MemoryCacheStore: HTTPCacheStore {
    private struct State {
        var entries: [String: (responses: [CachedResponse], bytes: Int, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most the store holds, in bytes.
    public let maxBytes: Int
    private let state = Mutex(State())

    /// A store of at most `maxBytes` (10 MiB by default).
    public init(maxBytes: Int = 10 * 1024 * 1024) {
        self.maxBytes = maxBytes
    }

    /// The bytes held now.
    public var byteCount: Int { state.withLock { $0.bytes } }

    /// The responses stored for `url`; marks it as the most recently used.
    public func responses(for url: String) async throws -> [CachedResponse] {
        state.withLock { state in
            guard var entry = state.entries[url] else { return [] }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[url] = entry
            return entry.responses
        }
    }

    /// Replaces the responses stored for `url`, then drops the least recently used URLs past ``maxBytes``
    /// (responses larger than the whole store are not kept).
    public func setResponses(_ responses: [CachedResponse], for url: String) async throws {
        let bytes = responses.reduce(0) { $0 + Self.size(of: $1) }
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: url) { state.bytes -= old.bytes }
            guard !responses.isEmpty, bytes <= maxBytes else { return }
            state.clock += 1
            state.entries[url] = (responses, bytes, state.clock)
            state.bytes += bytes
            while state.bytes > maxBytes,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                state.bytes -= oldest.value.bytes
            }
        }
    }

    /// Removes every stored response.
    public func removeAll() async throws {
        state.withLock { $0 = State() }
    }

    /// The body's bytes plus an estimate of the head's.
    static func size(of response: CachedResponse) -> Int {
        response.body.count + response.url.utf8.count
            + response.response.headerFields.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
    }
}

/// An on-disk ``HTTPCacheStore``: one file per URL in a directory of its own, written atomically, read on
/// demand, so the cache survives the process and costs no memory while idle.
///
/// Responses to requests with credentials (`Authorization`, `Cookie`) or that set cookies are not written
/// unless ``storesCredentialedResponses`` is on: files are not encrypted. The directory is not bounded by
/// size; ``removeAll()`` empties it.
public final class DiskCacheStore: HTTPCacheStore {
    /// The directory the files are in.
    public let directory: URL
    /// Whether responses tied to credentials are written too; off by default.
    public let storesCredentialedResponses: Bool

    /// A store in `directory` (created when missing).
    public init(directory: URL, storesCredentialedResponses: Bool = false) throws {
        // Only this user may read what is cached.
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        self.directory = directory
        self.storesCredentialedResponses = storesCredentialedResponses
    }

    private struct File: Codable {
        let url: String
        let responses: [CachedResponse]
    }

    /// The responses in `url`'s file, if there is one.
    public func responses(for url: String) async throws -> [CachedResponse] {
        guard let data = try? Data(contentsOf: file(for: url)) else { return [] }
        let file = try JSONDecoder().decode(File.self, from: data)
        return file.url == url ? file.responses : []  // another URL with the same hash: not ours
    }

    /// Writes `url`'s file (atomically), leaving out credentialed responses unless told otherwise; an empty
    /// list deletes it.
    public func setResponses(_ responses: [CachedResponse], for url: String) async throws {
        let kept = storesCredentialedResponses ? responses : responses.filter { !$0.isCredentialed }
        let path = file(for: url)
        guard !kept.isEmpty else {
            try? FileManager.default.removeItem(at: path)
            return
        }
        try JSONEncoder().encode(File(url: url, responses: kept)).write(to: path, options: .atomic)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600], ofItemAtPath: path.path(percentEncoded: false))
    }

    /// Deletes every file of the store.
    public func removeAll() async throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
        where name.hasSuffix(".cache") {
            try? FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }

    /// The file for `url`: its 64-bit FNV-1a hash in hex.
    private func file(for url: String) -> URL {
        directory.appending(path: FNV1a64.hex(url) + ".cache")
    }
}
