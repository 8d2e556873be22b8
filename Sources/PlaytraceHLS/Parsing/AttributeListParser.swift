import PlaytraceCore

/// Where one attribute of an attribute list lies in the tag's bytes: offsets, not strings, so that reading a tag
/// makes a `String` only for the values the model keeps. Kept in 24 bytes (32-bit offsets: an attribute list is one
/// line, far shorter than 4 GB; ``AttributeListParser/scan(_:into:)`` refuses a longer one), so that a lookup returns
/// it in registers.
struct AttributeSpan {
    private var storedNameStart: UInt32
    private var storedNameEnd: UInt32
    private var storedValueStart: UInt32
    private var storedValueEnd: UInt32
    /// The name's length with its first and last bytes (``AttributeListParser/nameKey(_:)``): most lookups are
    /// settled by comparing it.
    let nameKey: UInt32
    let isQuoted: Bool

    init(nameStart: Int, nameEnd: Int, valueStart: Int, valueEnd: Int, isQuoted: Bool, nameKey: UInt32) {
        storedNameStart = UInt32(truncatingIfNeeded: nameStart)
        storedNameEnd = UInt32(truncatingIfNeeded: nameEnd)
        storedValueStart = UInt32(truncatingIfNeeded: valueStart)
        storedValueEnd = UInt32(truncatingIfNeeded: valueEnd)
        self.isQuoted = isQuoted
        self.nameKey = nameKey
    }

    var nameStart: Int { Int(storedNameStart) }
    var nameEnd: Int { Int(storedNameEnd) }
    var valueStart: Int { Int(storedValueStart) }
    var valueEnd: Int { Int(storedValueEnd) }
}

/// Reads `NAME=VALUE,NAME="quoted",…` from a tag's bytes.
enum AttributeListParser {
    /// Replaces what `spans` holds with the spans of a list's attributes and returns how many there are; `nil`
    /// when the list is malformed (a name without `=`, an unterminated quote, a quote inside an unquoted value, or
    /// stray characters after a quoted value). Control characters are the caller's to refuse (it scans the bytes
    /// once for them and for variables). The caller keeps `spans` from tag to tag: its capacity is reused.
    static func scan(_ bytes: Span<UInt8>, into spans: inout [AttributeSpan]) -> Int? {
        guard bytes.count <= UInt32.max else { return nil }  // (offsets are 32-bit)
        spans.removeAll(keepingCapacity: true)
        var index = 0
        let count = bytes.count
        while index < count {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            if index == count { break }
            var nameStart = index
            index = ByteScanning.firstIndex(of: 0x3D, or: 0x2C, in: bytes, from: index)
            guard index < count, bytes[index] == 0x3D else { return nil }
            var nameEnd = index
            while nameStart < nameEnd, ByteScanning.isBlank(bytes[nameStart]) { nameStart += 1 }
            while nameEnd > nameStart, ByteScanning.isBlank(bytes[nameEnd - 1]) { nameEnd -= 1 }
            guard nameStart < nameEnd else { return nil }
            index += 1
            var valueStart: Int
            var valueEnd: Int
            let isQuoted = index < count && bytes[index] == 0x22
            if isQuoted {
                valueStart = index + 1
                index = valueStart
                index = ByteScanning.firstIndex(of: 0x22, or: 0x22, in: bytes, from: index)
                guard index < count else { return nil }
                valueEnd = index
                index += 1
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                guard index == count || bytes[index] == 0x2C else { return nil }
            } else {
                valueStart = index
                index = ByteScanning.firstIndex(of: 0x2C, or: 0x22, in: bytes, from: index)
                guard index == count || bytes[index] != 0x22 else { return nil }  // a quote inside an unquoted value
                valueEnd = index
                while valueStart < valueEnd, ByteScanning.isBlank(bytes[valueStart]) { valueStart += 1 }
                while valueEnd > valueStart, ByteScanning.isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
            }
            let key = nameKey(count: nameEnd - nameStart, first: bytes[nameStart], last: bytes[nameEnd - 1])
            spans.append(AttributeSpan(
                nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd, isQuoted: isQuoted,
                nameKey: key))
            if index < count { index += 1 }
        }
        return spans.count
    }

    /// A name's length (its low 16 bits) with its first and last bytes, in one integer.
    @inline(__always) static func nameKey(_ name: Span<UInt8>) -> UInt32 {
        guard !name.isEmpty else { return 0 }
        return nameKey(count: name.count, first: name[0], last: name[name.count - 1])
    }

    /// ``nameKey(_:)`` from its parts (the scan has them at hand).
    @inline(__always) static func nameKey(count: Int, first: UInt8, last: UInt8) -> UInt32 {
        UInt32(truncatingIfNeeded: count) << 16 | UInt32(first) << 8 | UInt32(last)
    }

    @inline(__always) static func nameKey(_ name: StaticString) -> UInt32 {
        name.withSpan { nameKey($0) }
    }

    /// One bit of 64 for a name key: a list's bits, or-ed together, tell at once that most names are absent.
    @inline(__always) static func presenceBit(_ key: UInt32) -> UInt64 {
        1 << ((UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}

/// A set of attribute names a tag's model holds, with their keys worked out once and a small table from a key's
/// presence bit to the name that has it, so that telling whether a name is one of them takes one lookup.
///
/// A reader resolved against a set (``AttributeReader/resolve(against:)``) finds each of its names in one step.
final class AttributeNames: Sendable {
    /// The most names a set holds: a resolved reader keeps one slot per name.
    static let capacity = 32

    let names: [StaticString]
    let keys: [UInt32]
    /// The multiplier that spreads this set's keys over the table's slots (``slot(_:)``), chosen so that no two names
    /// share a slot when one such exists.
    private let multiplier: UInt64
    /// For each of the 256 slots: the index of the one name in it, `-1` for none, `-2` for several.
    private let table: [Int8]
    /// The same from the address of each name's literal: the parser looks names up with the very literals the set
    /// was made of (the compiler lays out one copy of each), which this finds without reading the name.
    private let literalTable: [Int8]

    init(_ names: [StaticString]) {
        precondition(names.count <= Self.capacity, "an attribute name set holds at most \(Self.capacity) names")
        self.names = names
        let keys = names.map(AttributeListParser.nameKey)
        self.keys = keys
        // Odd multipliers tried in turn: with at most 32 names in 256 slots, one of the first few nearly always
        // leaves each name alone in its slot. If none does, shared slots are searched name by name.
        var best: (multiplier: UInt64, table: [Int8], shared: Int)?
        var candidate: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<64 {
            var table = [Int8](repeating: -1, count: 256)
            var shared = 0
            for (index, key) in keys.enumerated() {
                let slot = Int((UInt64(key) &* candidate) >> 56)
                if table[slot] == -1 {
                    table[slot] = Int8(index)
                } else {
                    table[slot] = -2
                    shared += 1
                }
            }
            if best.map({ shared < $0.shared }) ?? true { best = (candidate, table, shared) }
            if shared == 0 { break }
            candidate = candidate &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 | 1
        }
        multiplier = best!.multiplier
        table = best!.table
        var literalTable = [Int8](repeating: -1, count: 256)
        for (index, name) in names.enumerated() {
            let slot = Self.literalSlot(name)
            literalTable[slot] = literalTable[slot] == -1 ? Int8(index) : -2
        }
        self.literalTable = literalTable
    }

    @inline(__always) private func slot(_ key: UInt32) -> Int { Int((UInt64(key) &* multiplier) >> 56) }

    @inline(__always) private static func literalSlot(_ name: StaticString) -> Int {
        Int((UInt64(UInt(bitPattern: name.utf8Start)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
    }

    /// The index of a name given as one of the literals the set was made of; `nil` for any other literal (which
    /// `index(of:key:)` then settles).
    @inline(__always) func index(ofLiteral name: StaticString) -> Int? {
        let entry = literalTable[Self.literalSlot(name)]
        guard entry >= 0, names[Int(entry)].utf8Start == name.utf8Start else { return nil }
        return Int(entry)
    }

    /// The index of the name (whose key is `key`) in the set; `nil` when it is not one of them.
    @inline(__always) func index(of name: Span<UInt8>, key: UInt32) -> Int? {
        let entry = table[slot(key)]
        if entry == -1 { return nil }
        if entry >= 0 {
            let index = Int(entry)
            return keys[index] == key && ByteScanning.equal(names[index], name) ? index : nil
        }
        for index in keys.indices where keys[index] == key {
            if ByteScanning.equal(names[index], name) { return index }
        }
        return nil
    }

    /// The index of a name given as a literal: the same literal is usually the same pointer, which settles it.
    @inline(__always) func index(of name: StaticString, key: UInt32) -> Int? {
        let entry = table[slot(key)]
        if entry >= 0, keys[Int(entry)] == key, names[Int(entry)].utf8Start == name.utf8Start { return Int(entry) }
        return name.withSpan { index(of: $0, key: key) }
    }

    /// Whether the name (whose key is `key`) is one of these.
    func contains(_ name: Span<UInt8>, key: UInt32) -> Bool { index(of: name, key: key) != nil }
}
