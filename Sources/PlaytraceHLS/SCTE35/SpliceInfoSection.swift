public import PlaytraceCore
import Foundation

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
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespaces)) else {
            throw SCTE35Error.invalidEncoding(text)
        }
        try self.init(bytes: Array(data))
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

    /// `pts_time` of the command with `pts_adjustment` applied (modulo 2^33), in seconds; `nil` when the
    /// command has no time (immediate, or no time specified).
    public var adjustedSpliceTime: MediaTime? {
        let pts: UInt64?
        switch command {
        case .timeSignal(let time): pts = time.ptsTime
        case .spliceInsert(let insert): pts = insert.spliceTime?.ptsTime
        default: pts = nil
        }
        guard let pts else { return nil }
        return MediaTime(seconds: Double((pts &+ ptsAdjustment) & 0x1_FFFF_FFFF) / 90_000)
    }

    /// The segmentation descriptors.
    public var segmentationDescriptors: [SegmentationDescriptor] {
        descriptors.compactMap { if case .segmentation(let descriptor) = $0 { descriptor } else { nil } }
    }
}

enum SCTE35Encoding {
    static func decode(_ text: String) throws(SCTE35Error) -> [UInt8] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            guard let bytes = hex(trimmed) else { throw SCTE35Error.invalidEncoding(text) }
            return bytes
        }
        if let data = Data(base64Encoded: trimmed) { return Array(data) }
        if let bytes = hex(trimmed) { return bytes }
        throw SCTE35Error.invalidEncoding(text)
    }

    static func hex(_ text: String) -> [UInt8]? {
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard !digits.isEmpty, digits.utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.utf8.count / 2)
        var high: UInt8?
        for character in digits.utf8 {
            let nibble: UInt8
            switch character {
            case 0x30...0x39: nibble = character - 0x30
            case 0x41...0x46: nibble = character - 0x41 + 10
            case 0x61...0x66: nibble = character - 0x61 + 10
            default: return nil
            }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return bytes
    }
}
