import Testing
@testable import PlaytraceLab

/// The lab's live streams loop real content with its timestamps moved on: PTS, DTS and PCR, modulo 2³³.
@Suite("Transport stream retimer")
struct TransportStreamRetimerTests {
    /// One 188-byte packet starting a PES packet (video, PTS and DTS), with an adaptation field carrying a PCR.
    static func packet(pts: UInt64, dts: UInt64, pcr: UInt64, pcrExtension: UInt16 = 0x155) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xFF, count: 188)
        bytes[0] = 0x47
        bytes[1] = 0x40 | 0x01  // payload unit start, PID 0x100
        bytes[2] = 0x00
        bytes[3] = 0x30  // adaptation field and payload
        bytes[4] = 7  // adaptation field length: flags and a PCR
        bytes[5] = 0x10  // PCR flag
        bytes[6] = UInt8((pcr >> 25) & 0xFF)
        bytes[7] = UInt8((pcr >> 17) & 0xFF)
        bytes[8] = UInt8((pcr >> 9) & 0xFF)
        bytes[9] = UInt8((pcr >> 1) & 0xFF)
        bytes[10] = UInt8((pcr & 1) << 7) | 0x7E | UInt8(pcrExtension >> 8)
        bytes[11] = UInt8(pcrExtension & 0xFF)
        let pes = 12
        bytes[pes ..< pes + 9] = [0, 0, 1, 0xE0, 0, 0, 0x80, 0xC0, 10]
        bytes.replaceSubrange(pes + 9 ..< pes + 14, with: timestamp(pts, marker: 0x3))
        bytes.replaceSubrange(pes + 14 ..< pes + 19, with: timestamp(dts, marker: 0x1))
        return bytes
    }

    static func timestamp(_ value: UInt64, marker: UInt8) -> [UInt8] {
        [(marker << 4) | UInt8((value >> 29) & 0x0E) | 1, UInt8((value >> 22) & 0xFF), UInt8((value >> 14) & 0xFE) | 1,
         UInt8((value >> 7) & 0xFF), UInt8((value << 1) & 0xFE) | 1]
    }

    static func decodeTimestamp(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        let b = Array(bytes)
        return (UInt64(b[0] >> 1) & 0x7) << 30 | (UInt64(b[1]) << 22) | (UInt64(b[2] >> 1) << 15) | (UInt64(b[3]) << 7) | UInt64(b[4] >> 1)
    }

    static func decodePCR(_ bytes: [UInt8]) -> UInt64 {
        (UInt64(bytes[6]) << 25) | (UInt64(bytes[7]) << 17) | (UInt64(bytes[8]) << 9) | (UInt64(bytes[9]) << 1) | UInt64(bytes[10] >> 7)
    }

    @Test("PTS, DTS and PCR move by the same ticks; marker bits, prefixes and the PCR extension stay")
    func shifts() {
        let original = Self.packet(pts: 133_200, dts: 126_000, pcr: 120_000)
        let ticks: UInt64 = 80 * 90_000
        let retimed = TransportStreamRetimer.retimed(original, by: ticks)
        #expect(Self.decodeTimestamp(retimed[21..<26]) == 133_200 + ticks)
        #expect(Self.decodeTimestamp(retimed[26..<31]) == 126_000 + ticks)
        #expect(Self.decodePCR(retimed) == 120_000 + ticks)
        #expect(retimed[21] >> 4 == 0x3 && retimed[26] >> 4 == 0x1, "the PTS and DTS prefixes")
        #expect([21, 23, 25, 26, 28, 30].allSatisfy { retimed[$0] & 1 == 1 }, "the marker bits")
        #expect(retimed[10] & 0x7F == original[10] & 0x7F && retimed[11] == original[11], "the PCR extension")
        #expect(retimed[31...] == original[31...], "the payload")
    }

    @Test("Timestamps wrap at 2³³, as a decoder expects")
    func wraps() {
        let near = (UInt64(1) << 33) - 90_000
        let retimed = TransportStreamRetimer.retimed(Self.packet(pts: near, dts: near, pcr: near), by: 180_000)
        #expect(Self.decodeTimestamp(retimed[21..<26]) == 90_000)
        #expect(Self.decodePCR(retimed) == 90_000)
    }

    @Test("What is not a packet is left alone: a lost sync byte, a short tail, a PES header cut short")
    func leavesTheRest() {
        var lost = Self.packet(pts: 1_000, dts: 1_000, pcr: 1_000)
        lost[0] = 0x00
        let tail: [UInt8] = [0x47, 0x40, 0x00, 0x10, 0, 0, 1]
        var cut = Self.packet(pts: 1_000, dts: 1_000, pcr: 1_000)
        cut[4] = 176  // the adaptation field fills the packet: no room for the PES header it would hold
        let bytes = lost + cut + tail
        let retimed = TransportStreamRetimer.retimed(bytes, by: 90_000)
        #expect(retimed[..<188] == bytes[..<188])
        #expect(retimed[(376)...] == bytes[376...])
        #expect(Self.decodeTimestamp(retimed[188 + 21 ..< 188 + 26]) == 1_000, "a PES header the adaptation field hides")
        #expect(TransportStreamRetimer.retimed(bytes, by: 0) == bytes)
    }
}
