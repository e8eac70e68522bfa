/// A secret value (an API key, a token) that never shows itself: its description, debug description and
/// mirror say `<redacted>`, so it can't leak into logs, `print`, `dump` or error messages by accident.
///
/// Read it deliberately with ``value``.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself.
    public let value: String

    /// Wraps a value.
    public init(_ value: String) { self.value = value }

    /// `<redacted>`.
    public var description: String { Redaction.placeholder }
    /// `Secret(<redacted>)`.
    public var debugDescription: String { "Secret(\(Redaction.placeholder))" }
    /// A mirror with no children, so `dump` shows nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
