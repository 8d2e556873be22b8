/// Moves an MPEG transport stream's timestamps later: every PES packet's PTS and DTS and every PCR, by the same
/// number of 90 kHz ticks (modulo 2³³, as they wrap).
///
/// The lab's live streams loop its real content; retimed, each loop's segments continue the timestamps of the one
/// before, as a live encoder's would, and a decoder plays across loops without a discontinuity (FFmpeg's HLS reader,
/// which libmpv plays through, ignores `EXT-X-DISCONTINUITY` and takes a jump back for a wrap).
///
/// One pass over the bytes, packet by packet: packets that are not 188 bytes starting with the sync byte, and PES
/// headers too short to hold what their flags announce, are left as they are.
enum TransportStreamRetimer {
    static let packetSize = 188
    /// The timestamps' modulus: they are 33-bit counts of 90 kHz ticks.
    static let wrap: UInt64 = 1 << 33

    /// `bytes` with its timestamps `ticks` later.
    static func retimed(_ bytes: [UInt8], by ticks: UInt64) -> [UInt8] {
        guard ticks % wrap != 0 else { return bytes }
        var bytes = bytes
        var packet = 0
        while packet + packetSize <= bytes.count {
            if bytes[packet] == 0x47 { retimePacket(&bytes, at: packet, by: ticks % wrap) }
            packet += packetSize
        }
        return bytes
    }

    private static func retimePacket(_ bytes: inout [UInt8], at packet: Int, by ticks: UInt64) {
        let startsUnit = bytes[packet + 1] & 0x40 != 0
        let adaptation = (bytes[packet + 3] >> 4) & 0x3
        var payload = packet + 4
        if adaptation & 0x2 != 0 {
            let length = Int(bytes[packet + 4])
            // A PCR: the adaptation field is long enough for flags and six bytes, and says it carries one.
            if length >= 7, bytes[packet + 5] & 0x10 != 0 { shiftPCR(&bytes, at: packet + 6, by: ticks) }
            payload = packet + 5 + length
        }
        let end = packet + packetSize
        guard startsUnit, adaptation & 0x1 != 0, payload + 9 <= end,
              bytes[payload] == 0, bytes[payload + 1] == 0, bytes[payload + 2] == 1,
              bytes[payload + 3] >= 0xBC else { return }
        // A PES header: its flags say whether a PTS (and a DTS) follow its fixed part.
        let flags = bytes[payload + 7] >> 6
        let headerLength = Int(bytes[payload + 8])
        let fields = payload + 9
        if flags & 0x2 != 0, headerLength >= 5, fields + 5 <= end { shiftTimestamp(&bytes, at: fields, by: ticks) }
        if flags == 0x3, headerLength >= 10, fields + 10 <= end { shiftTimestamp(&bytes, at: fields + 5, by: ticks) }
    }

    /// A PTS or DTS: 33 bits in five bytes, with marker bits (`xxxx bbb1`, 15 bits and a marker, 15 bits and a marker).
    private static func shiftTimestamp(_ bytes: inout [UInt8], at index: Int, by ticks: UInt64) {
        let shifted = (timestamp(bytes, at: index) &+ ticks) % wrap
        bytes[index] = (bytes[index] & 0xF1) | UInt8((shifted >> 29) & 0x0E)
        bytes[index + 1] = UInt8((shifted >> 22) & 0xFF)
        bytes[index + 2] = UInt8((shifted >> 14) & 0xFE) | (bytes[index + 2] & 0x01)
        bytes[index + 3] = UInt8((shifted >> 7) & 0xFF)
        bytes[index + 4] = UInt8((shifted << 1) & 0xFE) | (bytes[index + 4] & 0x01)
    }

    /// A PCR's base: 33 bits at the start of six bytes (then 6 reserved bits and a 9-bit extension, kept).
    private static func shiftPCR(_ bytes: inout [UInt8], at index: Int, by ticks: UInt64) {
        var base: UInt64 = 0
        for offset in 0..<4 { base = (base << 8) | UInt64(bytes[index + offset]) }
        base = (base << 1) | UInt64(bytes[index + 4] >> 7)
        let shifted = (base &+ ticks) % wrap
        bytes[index] = UInt8((shifted >> 25) & 0xFF)
        bytes[index + 1] = UInt8((shifted >> 17) & 0xFF)
        bytes[index + 2] = UInt8((shifted >> 9) & 0xFF)
        bytes[index + 3] = UInt8((shifted >> 1) & 0xFF)
        bytes[index + 4] = UInt8((shifted & 0x1) << 7) | (bytes[index + 4] & 0x7F)
    }

    private static func timestamp(_ bytes: [UInt8], at index: Int) -> UInt64 {
        let high = UInt64(bytes[index] >> 1) & 0x7
        let middle = (UInt64(bytes[index + 1]) << 7) | UInt64(bytes[index + 2] >> 1)
        let low = (UInt64(bytes[index + 3]) << 7) | UInt64(bytes[index + 4] >> 1)
        return (high << 30) | (middle << 15) | low
    }
}
