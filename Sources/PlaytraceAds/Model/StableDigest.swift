/// A digest of a text that is the same in every run and on every platform (Swift's own hashing is seeded per
/// process): FNV-1a, 64 bits, as 16 hexadecimal digits.
enum StableDigest {
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
