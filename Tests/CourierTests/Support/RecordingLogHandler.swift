import Logging
import Synchronization

/// A swift-log handler that keeps every message in memory, for tests.
struct RecordingLogHandler: LogHandler {
    struct Entry: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: Logger.Metadata
    }

    final class Store: Sendable {
        let entries = Mutex<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }
        /// Every message and metadata value as one text, for "does this appear anywhere" checks.
        var text: String {
            all.map { entry in
                ([entry.message] + entry.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
            }.joined(separator: "\n")
        }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        let entry = Entry(level: event.level, message: event.message.description, metadata: merged)
        store.entries.withLock { $0.append(entry) }
    }

    /// A logger writing into a new store.
    static func logger(level: Logger.Level = .trace) -> (Logger, Store) {
        let store = Store()
        var logger = Logger(label: "courier-tests") { _ in RecordingLogHandler(store: store) }
        logger.logLevel = level
        return (logger, store)
    }
}
