/// The 64-bit FNV-1a hash in hex: stable across runs and platforms (unlike `Hasher`), for names that must
/// survive the process (cache file names, credential fingerprints). Not a cryptographic hash.
enum FNV1a64 {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
