public import PlaytraceCore

/// A decoded SCTE-35 `splice_info_section` (ANSI/SCTE 35 §9.6).
///
/// ```swift
/// let section = try SpliceInfoSection(hex: dateRange.scte35Out!)
/// if case .timeSignal(let time) = section.command { print(time.ptsTime) }
/// for case .segmentation(let descriptor) in section.descriptors { print(descriptor.typeID) }
/// ```
public struct SpliceInfoSection: Sendable, Hashable {
    /// `protocol_version`.
    public var protocolVersion: UInt8
    /// `encrypted_packet`: when set, the command and descriptors are not decoded.
    public var isEncrypted: Bool
    /// `encryption_algorithm`.
    public var encryptionAlgorithm: UInt8
    /// `pts_adjustment`, in 90 kHz ticks.
    public var ptsAdjustment: UInt64
    /// `cw_index`.
    public var cwIndex: UInt8
    /// `tier`.
    public var tier: UInt16
    /// The splice command.
    public var command: SpliceCommand
    /// The splice descriptors.
    public var descriptors: [SpliceDescriptor]
    /// `CRC_32`, checked against the bytes.
    public var crc32: UInt32

    /// Decodes a message written as hexadecimal (`0xFC30…`, as in DATERANGE's SCTE35-OUT) or as base64 (as in
    /// EXT-OATCLS-SCTE35 and CUE-OUT-CONT).
    public init(encoded text: String) throws(SCTE35Error) {
        try self.init(bytes: SCTE35Encoding.decode(text))
    }

    /// Decodes a hexadecimal message, with or without its `0x` prefix.
    public init(hex text: String) throws(SCTE35Error) {
        guard let bytes = SCTE35Encoding.hex(text) else { throw SCTE35Error.invalidEncoding(text) }
        try self.init(bytes: bytes)
    }

    /// Decodes a base64 message.
    public init(base64 text: String) throws(SCTE35Error) {
        guard let bytes = SCTE35Encoding.base64(text) else { throw SCTE35Error.invalidEncoding(text) }
        try self.init(bytes: bytes)
    }

    /// Decodes a message from its bytes; the CRC-32 must match.
    public init(bytes: [UInt8]) throws(SCTE35Error) {
        var reader = BitReader(bytes)
        let tableID = try reader.byte()
        guard tableID == 0xFC else { throw SCTE35Error.invalidTableID(tableID) }
        try reader.skip(bits: 4)  // section_syntax_indicator, private_indicator, sap_type
        let sectionLength = Int(try reader.bits(12))
        guard sectionLength + 3 <= bytes.count, sectionLength >= 15 else {
            throw SCTE35Error.invalidSectionLength(declared: sectionLength, available: bytes.count - 3)
        }
        let sectionEnd = sectionLength + 3
        let storedCRC = UInt32(bytes[sectionEnd - 4]) << 24 | UInt32(bytes[sectionEnd - 3]) << 16
            | UInt32(bytes[sectionEnd - 2]) << 8 | UInt32(bytes[sectionEnd - 1])
        let computed = CRC32MPEG2.checksum(bytes[0..<(sectionEnd - 4)])
        guard computed == storedCRC else { throw SCTE35Error.crcMismatch(expected: storedCRC, computed: computed) }
        crc32 = storedCRC
        reader = BitReader(bytes, byteLimit: sectionEnd - 4)
        try reader.skip(bits: 24)
        protocolVersion = try reader.byte()
        isEncrypted = try reader.flag()
        encryptionAlgorithm = UInt8(try reader.bits(6))
        ptsAdjustment = try reader.bits(33)
        cwIndex = try reader.byte()
        tier = UInt16(try reader.bits(12))
        let commandLength = Int(try reader.bits(12))
        let commandType = try reader.byte()
        guard !isEncrypted else {
            command = .encrypted(type: commandType)
            descriptors = []
            return
        }
        let commandStart = reader.byteOffset
        command = try SpliceCommand.decode(type: commandType, reader: &reader,
                                           declaredLength: commandLength == 0xFFF ? nil : commandLength)
        if commandLength != 0xFFF {
            let consumed = reader.byteOffset - commandStart
            if consumed < commandLength { try reader.skip(bits: (commandLength - consumed) * 8) }
        }
        let loopLength = Int(try reader.bits(16))
        guard loopLength <= reader.remainingBytes else { throw SCTE35Error.truncated(at: reader.byteOffset) }
        descriptors = try SpliceDescriptor.decodeLoop(reader: &reader, length: loopLength)
    }

    /// The command's own `pts_time`, in 90 kHz ticks, as written (without `pts_adjustment`); `nil` when the command
    /// has no time (immediate, or no time specified).
    public var ptsTime: UInt64? {
        switch command {
        case .timeSignal(let time): time.ptsTime
        case .spliceInsert(let insert): insert.spliceTime?.ptsTime
        default: nil
        }
    }

    /// `pts_time` of the command with `pts_adjustment` applied (modulo 2^33), in seconds; `nil` when the
    /// command has no time (immediate, or no time specified).
    public var adjustedSpliceTime: MediaTime? {
        guard let pts = ptsTime else { return nil }
        return MediaTime(seconds: Double((pts &+ ptsAdjustment) & 0x1_FFFF_FFFF) / 90_000)
    }

    /// The segmentation descriptors.
    public var segmentationDescriptors: [SegmentationDescriptor] {
        descriptors.compactMap { if case .segmentation(let descriptor) = $0 { descriptor } else { nil } }
    }
}

/// The text forms of a splice_info_section, read over UTF-8 bytes (Foundation's trimming and character views cost
/// more than decoding the message; inspect decodes thousands of them).
enum SCTE35Encoding {
    static func decode(_ text: String) throws(SCTE35Error) -> [UInt8] {
        var text = text
        let bytes = text.withUTF8Span { all -> [UInt8]? in
            let digits = all.extracting(ByteScanning.trimmed(all))
            if hasHexPrefix(digits) { return hex(digits) }
            return base64(digits) ?? hex(digits)
        }
        guard let bytes else { throw SCTE35Error.invalidEncoding(text) }
        return bytes
    }

    static func hex(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8Span { hex($0.extracting(ByteScanning.trimmed($0))) }
    }

    static func base64(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8Span { base64($0.extracting(ByteScanning.trimmed($0))) }
    }

    private static func hasHexPrefix(_ bytes: Span<UInt8>) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x30 && (bytes[1] == 0x78 || bytes[1] == 0x58)
    }

    /// Hexadecimal digits, in pairs, after an optional `0x`.
    static func hex(_ text: Span<UInt8>) -> [UInt8]? {
        let digits = text.extracting((hasHexPrefix(text) ? 2 : 0)...)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x30...0x39: character - 0x30
        case 0x41...0x46: character - 0x41 + 10
        case 0x61...0x66: character - 0x61 + 10
        default: nil
        }
    }

    /// Standard base64 (RFC 4648 §4) with its padding: the length a multiple of four, `=` only at the end.
    static func base64(_ text: Span<UInt8>) -> [UInt8]? {
        guard !text.isEmpty, text.count % 4 == 0 else { return nil }
        var padding = 0
        if text[text.count - 1] == 0x3D { padding = text[text.count - 2] == 0x3D ? 2 : 1 }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            var group: UInt32 = 0
            for offset in 0..<4 {
                let character = text[index + offset]
                let value: UInt8
                if character == 0x3D, index + offset >= text.count - padding {
                    value = 0
                } else if let sextet = sextet(character) {
                    value = sextet
                } else {
                    return nil
                }
                group = group << 6 | UInt32(value)
            }
            bytes.append(UInt8(truncatingIfNeeded: group >> 16))
            bytes.append(UInt8(truncatingIfNeeded: group >> 8))
            bytes.append(UInt8(truncatingIfNeeded: group))
            index += 4
        }
        bytes.removeLast(padding)
        return bytes
    }

    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case 0x41...0x5A: character - 0x41
        case 0x61...0x7A: character - 0x61 + 26
        case 0x30...0x39: character - 0x30 + 52
        case 0x2B: 62
        case 0x2F: 63
        default: nil
        }
    }
}
