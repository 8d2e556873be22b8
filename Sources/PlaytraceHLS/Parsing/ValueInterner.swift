/// The short attribute values a playlist repeats from tag to tag — group ids, codecs, languages, video ranges,
/// `NONE` — each made into a `String` once per parse and shared after: a hash and a comparison instead of a UTF-8
/// validation and a copy. Comma-separated lists (`CODECS`) are kept whole the same way, so that variants with the
/// same codecs share one array.
///
/// Both caches are direct-mapped with a fixed number of slots: a value whose slot is taken replaces what was
/// there, so an input of only distinct values costs one extra comparison each and no memory beyond the slots.
final class ValueInterner {
    /// The longest value interned as a string, in bytes (two machine words).
    static let longestString = 16
    /// The longest list interned whole, in bytes.
    static let longestList = 64
    private static let slots = 256

    private struct StringEntry {
        var words: (UInt64, UInt64)
        var count: Int
        var string: String
    }

    private struct ListEntry {
        var hash: UInt64
        var bytes: [UInt8]
        var list: [String]
    }

    // Only the parse that owns the interner touches it, one call at a time: the runtime's exclusivity checks on
    // these class properties would cost more than the lookups.
    @exclusivity(unchecked) private var strings: [StringEntry?]
    @exclusivity(unchecked) private var lists: [ListEntry?]

    init() {
        strings = Array(repeating: nil, count: Self.slots)
        lists = Array(repeating: nil, count: Self.slots)
    }

    /// The value as a string: the one made before for the same bytes, if it is still in its slot.
    func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let count = bytes.count
        guard count > 0, count <= Self.longestString else { return ByteScanning.string(bytes) }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
        let slot = Int(truncatingIfNeeded: ((words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &+ UInt64(count))
            &* 0xC2B2_AE3D_27D4_EB4F) >> 56)
        if let entry = strings[slot], entry.count == count, entry.words == words { return entry.string }
        let string = ByteScanning.string(bytes)
        strings[slot] = StringEntry(words: words, count: count, string: string)
        return string
    }

    /// The list made by `make` from these bytes, or the one made before for the same bytes.
    func list(_ bytes: UnsafeBufferPointer<UInt8>, make: (UnsafeBufferPointer<UInt8>) -> [String]) -> [String] {
        guard bytes.count <= Self.longestList else { return make(bytes) }
        // FNV-1a over the bytes: lists are short, and this runs once per list.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let slot = Int(truncatingIfNeeded: hash >> 56)
        if let entry = lists[slot], entry.hash == hash,
           entry.bytes.withUnsafeBufferPointer({ ByteScanning.equal($0, bytes) }) { return entry.list }
        let list = make(bytes)
        lists[slot] = ListEntry(hash: hash, bytes: Array(bytes), list: list)
        return list
    }
}
