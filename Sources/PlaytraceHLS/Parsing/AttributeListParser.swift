/// Where one attribute of an attribute list lies in the tag's bytes: offsets, not strings, so that reading a tag
/// makes a `String` only for the values the model keeps.
struct AttributeSpan {
    var nameStart: Int
    var nameEnd: Int
    var valueStart: Int
    var valueEnd: Int
    var isQuoted: Bool
    /// The name's length with its first and last bytes (``AttributeListParser/nameKey(_:)``): most lookups are
    /// settled by comparing it.
    var nameKey: UInt64
}

/// Reads `NAME=VALUE,NAME="quoted",…` from a tag's bytes.
enum AttributeListParser {
    /// Finds the attributes of a list, appending their spans; `false` when the list is malformed (a name without
    /// `=`, an unterminated quote, a quote inside an unquoted value, or stray characters after a quoted value).
    /// Control characters are the caller's to refuse (it scans the bytes once for them and for variables).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, into spans: inout [AttributeSpan]) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            if index == count { break }
            var nameStart = index
            while index < count, bytes[index] != 0x3D, bytes[index] != 0x2C { index += 1 }
            guard index < count, bytes[index] == 0x3D else { return false }
            var nameEnd = index
            while nameStart < nameEnd, ByteScanning.isBlank(bytes[nameStart]) { nameStart += 1 }
            while nameEnd > nameStart, ByteScanning.isBlank(bytes[nameEnd - 1]) { nameEnd -= 1 }
            guard nameStart < nameEnd else { return false }
            index += 1
            var valueStart: Int
            var valueEnd: Int
            let isQuoted = index < count && bytes[index] == 0x22
            if isQuoted {
                valueStart = index + 1
                index = valueStart
                while index < count, bytes[index] != 0x22 { index += 1 }
                guard index < count else { return false }
                valueEnd = index
                index += 1
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                guard index == count || bytes[index] == 0x2C else { return false }
            } else {
                valueStart = index
                while index < count, bytes[index] != 0x2C {
                    guard bytes[index] != 0x22 else { return false }  // a quote inside an unquoted value
                    index += 1
                }
                valueEnd = index
                while valueStart < valueEnd, ByteScanning.isBlank(bytes[valueStart]) { valueStart += 1 }
                while valueEnd > valueStart, ByteScanning.isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
            }
            spans.append(AttributeSpan(
                nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd, isQuoted: isQuoted,
                nameKey: nameKey(UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]))))
            if index < count { index += 1 }
        }
        return true
    }

    /// A name's length with its first and last bytes, in one integer.
    @inline(__always) static func nameKey(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let first = name.first, let last = name.last else { return 0 }
        return UInt64(name.count) << 16 | UInt64(first) << 8 | UInt64(last)
    }

    @inline(__always) static func nameKey(_ name: StaticString) -> UInt64 {
        name.withUTF8Buffer { nameKey($0) }
    }

    /// One bit of 64 for a name key: a list's bits, or-ed together, tell at once that most names are absent.
    @inline(__always) static func presenceBit(_ key: UInt64) -> UInt64 {
        1 << ((key &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }
}

/// A set of attribute names a tag's model holds, with their keys worked out once and a small table from a key's
/// presence bit to the name that has it, so that telling whether a name is one of them takes one lookup.
struct AttributeNames {
    let names: [StaticString]
    let keys: [UInt64]
    /// For each of the 64 presence bits: the index of the one name with that bit, `-1` for none, `-2` for several.
    private let table: [Int16]

    init(_ names: [StaticString]) {
        self.names = names
        keys = names.map(AttributeListParser.nameKey)
        var table = [Int16](repeating: -1, count: 64)
        for (index, key) in keys.enumerated() {
            let slot = AttributeListParser.presenceBit(key).trailingZeroBitCount
            table[slot] = table[slot] == -1 ? Int16(index) : -2
        }
        self.table = table
    }

    /// Whether the name (whose key is `key`) is one of these.
    func contains(_ name: UnsafeBufferPointer<UInt8>, key: UInt64) -> Bool {
        let entry = table[AttributeListParser.presenceBit(key).trailingZeroBitCount]
        if entry == -1 { return false }
        if entry >= 0 {
            let index = Int(entry)
            return keys[index] == key && names[index].withUTF8Buffer { ByteScanning.equal($0, name) }
        }
        for index in keys.indices where keys[index] == key {
            if names[index].withUTF8Buffer({ ByteScanning.equal($0, name) }) { return true }
        }
        return false
    }
}
