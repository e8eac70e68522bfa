import Synchronization

/// The short URLs one server instance has issued, both ways round.
///
/// An id is `http://goo.gl/` plus six base-62 characters derived from the long URL's FNV-1a hash, so
/// the same long URL gets the same id (on every server instance, too, unless two URLs collide).
final class ShortURLStore: Sendable {
    private struct Table {
        var idsByLongURL: [String: String] = [:]
        var longURLsByID: [String: String] = [:]
    }

    private let table = Mutex(Table())

    /// The id for `longURL`, issuing one if it has none yet.
    func shorten(_ longURL: String) -> String {
        table.withLock { table in
            if let existing = table.idsByLongURL[longURL] { return existing }
            var salt: UInt64 = 0
            var id = Self.id(for: longURL, salt: salt)
            while table.longURLsByID[id] != nil {
                salt += 1
                id = Self.id(for: longURL, salt: salt)
            }
            table.idsByLongURL[longURL] = id
            table.longURLsByID[id] = longURL
            return id
        }
    }

    /// The long URL behind a short id, or nil if this instance never issued it.
    func expand(_ id: String) -> String? {
        table.withLock { $0.longURLsByID[id] }
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    private static func id(for longURL: String, salt: UInt64) -> String {
        var hash = FNV1a64.hash(longURL.utf8) ^ salt &* 0x9E37_79B9_7F4A_7C15
        var code = ""
        for _ in 0..<6 {
            code.append(alphabet[Int(hash % 62)])
            hash /= 62
        }
        return "http://goo.gl/" + code
    }
}
