/// Unguessable tokens for the demo APIs' sessions.
enum RandomToken {
    /// `prefix` followed by `byteCount` random bytes in lowercase hex, e.g. `at_3f9c…`.
    static func make(prefix: String, byteCount: Int = 16) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = prefix
        for _ in 0..<byteCount {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return text
    }
}
