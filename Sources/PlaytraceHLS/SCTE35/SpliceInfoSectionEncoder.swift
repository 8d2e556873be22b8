/// Writes SCTE-35 `splice_info_section`s: `splice_insert` and `time_signal` with segmentation descriptors.
///
/// Used by the lab to signal ad breaks, and by tests to build messages the decoder reads back.
///
/// ```swift
/// let bytes = SpliceInfoSectionEncoder.spliceInsert(eventID: 1, isOutOfNetwork: true, ptsTime: 900_000,
///                                                   breakDuration: 30 * 90_000)
/// let hex = SpliceInfoSectionEncoder.hex(bytes)    // "0xFC30…"
/// ```
public enum SpliceInfoSectionEncoder {
    /// A `splice_insert` program splice with an optional break duration (90 kHz ticks).
    public static func spliceInsert(
        eventID: UInt32, isOutOfNetwork: Bool, ptsTime: UInt64?, breakDuration: UInt64?, autoReturn: Bool = true,
        uniqueProgramID: UInt16 = 0
    ) -> [UInt8] {
        var command = BitWriter()
        command.write(UInt64(eventID), bits: 32)
        command.write(0, bits: 1)
        command.write(0x7F, bits: 7)
        command.write(isOutOfNetwork ? 1 : 0, bits: 1)
        command.write(1, bits: 1)  // program_splice_flag
        command.write(breakDuration == nil ? 0 : 1, bits: 1)
        command.write(ptsTime == nil ? 1 : 0, bits: 1)  // splice_immediate_flag
        command.write(1, bits: 1)  // event_id_compliance_flag
        command.write(0x7, bits: 3)
        if let ptsTime { writeSpliceTime(ptsTime, to: &command) }
        if let breakDuration {
            command.write(autoReturn ? 1 : 0, bits: 1)
            command.write(0x3F, bits: 6)
            command.write(breakDuration & 0x1_FFFF_FFFF, bits: 33)
        }
        command.write(UInt64(uniqueProgramID), bits: 16)
        command.write(0, bits: 8)
        command.write(0, bits: 8)
        return section(commandType: 0x05, command: command.bytes, descriptors: [])
    }

    /// A `time_signal` with one segmentation descriptor.
    public static func timeSignal(
        ptsTime: UInt64, segmentationEventID: UInt32, segmentationTypeID: UInt8, duration: UInt64?,
        upidType: UInt8 = 0x0F, upid: [UInt8] = [], segmentNumber: UInt8 = 0, segmentsExpected: UInt8 = 0,
        ptsAdjustment: UInt64 = 0
    ) -> [UInt8] {
        var command = BitWriter()
        writeSpliceTime(ptsTime, to: &command)
        var descriptor = BitWriter()
        descriptor.write(0x4355_4549, bits: 32)  // "CUEI"
        descriptor.write(UInt64(segmentationEventID), bits: 32)
        descriptor.write(0, bits: 1)
        descriptor.write(0x7F, bits: 7)
        descriptor.write(1, bits: 1)  // program_segmentation_flag
        descriptor.write(duration == nil ? 0 : 1, bits: 1)
        descriptor.write(1, bits: 1)  // delivery_not_restricted_flag
        descriptor.write(0x1F, bits: 5)
        if let duration { descriptor.write(duration, bits: 40) }
        descriptor.write(UInt64(upidType), bits: 8)
        descriptor.write(UInt64(upid.count), bits: 8)
        for byte in upid { descriptor.write(UInt64(byte), bits: 8) }
        descriptor.write(UInt64(segmentationTypeID), bits: 8)
        descriptor.write(UInt64(segmentNumber), bits: 8)
        descriptor.write(UInt64(segmentsExpected), bits: 8)
        if [0x34, 0x30, 0x32, 0x36, 0x38, 0x3A, 0x44, 0x46].contains(segmentationTypeID) {
            descriptor.write(0, bits: 8)
            descriptor.write(0, bits: 8)
        }
        let body = descriptor.bytes
        return section(commandType: 0x06, command: command.bytes, descriptors: [0x02, UInt8(body.count)] + body,
                       ptsAdjustment: ptsAdjustment)
    }

    /// `0x`-prefixed upper-case hexadecimal, as DATERANGE's SCTE35 attributes carry it.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var text = "0x"
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return text
    }

    private static func writeSpliceTime(_ pts: UInt64, to writer: inout BitWriter) {
        writer.write(1, bits: 1)
        writer.write(0x3F, bits: 6)
        writer.write(pts & 0x1_FFFF_FFFF, bits: 33)
    }

    private static func section(commandType: UInt8, command: [UInt8], descriptors: [UInt8],
                                ptsAdjustment: UInt64 = 0) -> [UInt8] {
        var body = BitWriter()
        body.write(0, bits: 8)  // protocol_version
        body.write(0, bits: 1)  // encrypted_packet
        body.write(0, bits: 6)  // encryption_algorithm
        body.write(ptsAdjustment & 0x1_FFFF_FFFF, bits: 33)  // pts_adjustment
        body.write(0xFF, bits: 8)  // cw_index
        body.write(0xFFF, bits: 12)  // tier
        body.write(UInt64(command.count), bits: 12)
        body.write(UInt64(commandType), bits: 8)
        var bytes = body.bytes + command
        bytes += [UInt8(descriptors.count >> 8), UInt8(descriptors.count & 0xFF)] + descriptors
        let sectionLength = bytes.count + 4
        var header = BitWriter()
        header.write(0xFC, bits: 8)
        header.write(0, bits: 1)  // section_syntax_indicator
        header.write(0, bits: 1)  // private_indicator
        header.write(0x3, bits: 2)  // sap_type: not specified
        header.write(UInt64(sectionLength), bits: 12)
        let withoutCRC = header.bytes + bytes
        let crc = CRC32MPEG2.checksum(withoutCRC)
        return withoutCRC + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
    }
}

struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: UInt64, bits: Int) {
        for shift in stride(from: bits - 1, through: 0, by: -1) {
            let bit = UInt8((value >> UInt64(shift)) & 1)
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= bit << (7 - UInt8(bitCount % 8))
            bitCount += 1
        }
    }
}
