/// Percent-encoding of UTF-8 text for the parts of a URL and for form bodies.
///
/// Works on bytes, so it never depends on Foundation's character sets (which leave `+`, `&` and `=`
/// unencoded in query values, where servers read them as a space or a separator).
enum PercentEncoding: Sendable {
    /// RFC 3986 unreserved characters only: `ALPHA DIGIT - . _ ~`. Used for query names and values and for
    /// interpolated path segments, so that no delimiter can leak out of the value it belongs to.
    case unreserved
    /// Characters that may stand in a path as written: unreserved, sub-delimiters, `:`, `@`, `/` and `%`
    /// (a literal path is trusted to be already encoded where it uses `%`).
    case pathLiteral
    /// The WHATWG `application/x-www-form-urlencoded` byte set: alphanumerics and `*-._` are kept,
    /// a space becomes `+`, every other byte is `%XX`.
    case form

    /// Returns `text` with every byte outside this set written as `%XX` (upper-case hex).
    func encode(_ text: some StringProtocol) -> String {
        var utf8 = text.utf8
        // Fast path: nothing to escape, so no new storage is needed. Scanning the contiguous bytes, where the
        // string has them, costs a few instructions a byte instead of a UTF-8 view index step.
        let kept =
            utf8.withContiguousStorageIfAvailable { $0.allSatisfy { keeps($0) } } ?? utf8.allSatisfy { keeps($0) }
        if kept { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        append(&utf8, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the encoded form of `text` to `bytes`.
    func append(_ text: some StringProtocol, to bytes: inout [UInt8]) {
        var utf8 = text.utf8
        append(&utf8, to: &bytes)
    }

    private func append<S: Sequence<UInt8>>(_ utf8: inout S, to bytes: inout [UInt8]) {
        for byte in utf8 {
            if keeps(byte) {
                bytes.append(byte)
            } else if self == .form && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Self.hexDigits[Int(byte >> 4)])
                bytes.append(Self.hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Whether this set keeps `byte` as it is: one look-up in ``kept``.
    @inline(__always)
    private func keeps(_ byte: UInt8) -> Bool {
        Self.kept[Int(byte)] & mask != 0
    }

    /// This set's bit in ``kept``.
    private var mask: UInt8 {
        switch self {
        case .unreserved: 1
        case .pathLiteral: 2
        case .form: 4
        }
    }

    /// For each byte, the sets that keep it (bit 0 unreserved, 1 path literal, 2 form): a table, because a
    /// `switch` over ranges costs tens of instructions a byte on the request path.
    private static let kept: [UInt8] = (0...255).map { value in
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            return 1 | 2 | 4
        case UInt8(ascii: "~"):
            return 1 | 2
        case UInt8(ascii: "*"):
            return 2 | 4
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "%"):
            return 2
        default:
            return 0
        }
    }
}
