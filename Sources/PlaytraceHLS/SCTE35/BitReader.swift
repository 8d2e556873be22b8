/// Reads big-endian bit fields from bytes, failing instead of reading past the end.
struct BitReader {
    let bytes: [UInt8]
    private(set) var bitOffset = 0
    let bitLimit: Int

    init(_ bytes: [UInt8], byteLimit: Int? = nil) {
        self.bytes = bytes
        self.bitLimit = min(byteLimit ?? bytes.count, bytes.count) * 8
    }

    var byteOffset: Int { bitOffset / 8 }
    var remainingBits: Int { bitLimit - bitOffset }
    var remainingBytes: Int { remainingBits / 8 }

    /// The next `count` bits (0 to 64), most significant first. Each step takes all it needs of one byte: a
    /// 33-bit PTS costs five steps, not 33.
    mutating func bits(_ count: Int) throws(SCTE35Error) -> UInt64 {
        precondition(count >= 0 && count <= 64)
        guard count <= remainingBits else { throw SCTE35Error.truncated(at: byteOffset) }
        var value: UInt64 = 0
        var remaining = count
        while remaining > 0 {
            let available = 8 - (bitOffset & 7)
            let taken = min(available, remaining)
            // The byte's bits from the offset on, then the first `taken` of them.
            let chunk = (UInt64(bytes[bitOffset >> 3]) & ((1 << available) - 1)) >> (available - taken)
            value = (value << taken) | chunk
            remaining -= taken
            bitOffset += taken
        }
        return value
    }

    mutating func flag() throws(SCTE35Error) -> Bool { try bits(1) == 1 }

    mutating func byte() throws(SCTE35Error) -> UInt8 { UInt8(try bits(8)) }

    mutating func skip(bits count: Int) throws(SCTE35Error) {
        guard count <= remainingBits else { throw SCTE35Error.truncated(at: byteOffset) }
        bitOffset += count
    }

    mutating func bytes(_ count: Int) throws(SCTE35Error) -> [UInt8] {
        guard bitOffset % 8 == 0, count >= 0, count * 8 <= remainingBits else {
            throw SCTE35Error.truncated(at: byteOffset)
        }
        let start = byteOffset
        bitOffset += count * 8
        return Array(bytes[start..<(start + count)])
    }
}

/// CRC-32/MPEG-2 (polynomial 0x04C11DB7, initial value 0xFFFFFFFF, no reflection, no final XOR), the checksum
/// of MPEG-2 sections including SCTE-35's splice_info_section.
public enum CRC32MPEG2 {
    private static let table: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        return crc
    }

    /// The checksum of `bytes`. Over a whole section including its CRC field, the result is 0.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = (crc << 8) ^ table[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)] }
        return crc
    }
}
