/// Reads `NAME=VALUE,NAME="quoted",…` from a tag's bytes.
enum AttributeListParser {
    /// Parses an attribute list; `nil` when it is malformed (a name without `=`, an unterminated quote, or stray
    /// characters after a quoted value).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> AttributeList? {
        for byte in bytes where ByteScanning.isControl(byte) { return nil }
        var commas = 0
        for byte in bytes where byte == 0x2C { commas += 1 }
        var list = AttributeList(reservingCapacity: min(commas + 1, 64))
        var index = 0
        let count = bytes.count
        while index < count {
            while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            if index == count { break }
            let nameStart = index
            while index < count, bytes[index] != 0x3D, bytes[index] != 0x2C { index += 1 }
            guard index < count, bytes[index] == 0x3D else { return nil }
            let name = ByteScanning.trimmed(UnsafeBufferPointer(rebasing: bytes[nameStart..<index]))
            guard !name.isEmpty else { return nil }
            index += 1
            let value: AttributeValue
            if index < count, bytes[index] == 0x22 {
                let valueStart = index + 1
                index = valueStart
                while index < count, bytes[index] != 0x22 { index += 1 }
                guard index < count else { return nil }
                value = .quoted(ByteScanning.string(UnsafeBufferPointer(rebasing: bytes[valueStart..<index])))
                index += 1
                while index < count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                guard index == count || bytes[index] == 0x2C else { return nil }
            } else {
                let valueStart = index
                while index < count, bytes[index] != 0x2C {
                    guard bytes[index] != 0x22 else { return nil }  // a quote inside an unquoted value
                    index += 1
                }
                let raw = ByteScanning.trimmed(UnsafeBufferPointer(rebasing: bytes[valueStart..<index]))
                value = .unquoted(ByteScanning.string(raw))
            }
            list.append(ByteScanning.string(name), value)
            if index < count { index += 1 }
        }
        return list
    }
}
