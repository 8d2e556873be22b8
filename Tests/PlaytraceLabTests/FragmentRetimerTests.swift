import Testing
import PlaytraceDASH
@testable import PlaytraceLab

/// The lab's live DASH presentations loop real fragmented MP4 with its times moved on: `tfdt` in the track's
/// timescale, `sidx` in its own.
@Suite("Fragment retimer")
struct FragmentRetimerTests {
    static func uint32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func uint64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        uint32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    /// A full box's version and flags.
    static func full(_ version: UInt8) -> [UInt8] { [version, 0, 0, 0] }

    /// `styp`, a `sidx` (version 1, timescale `sidxTimescale`), a `moof` with two `traf`s (a version 1 and a version 0
    /// `tfdt`), an `mdat`.
    static func segment(decodeTime: UInt64, shortTime: UInt32, earliest: UInt64, sidxTimescale: UInt32) -> [UInt8] {
        let sidx = box("sidx", full(1) + uint32(1) + uint32(sidxTimescale) + uint64(earliest) + uint64(0) + [0, 0, 0, 0])
        let traf1 = box("traf", box("tfhd", full(0) + uint32(1)) + box("tfdt", full(1) + uint64(decodeTime)))
        let traf2 = box("traf", box("tfhd", full(0) + uint32(2)) + box("tfdt", full(0) + uint32(shortTime)))
        return box("styp", Array("msdh".utf8) + uint32(0)) + sidx + box("moof", box("mfhd", full(0) + uint32(7)) + traf1 + traf2)
            + box("mdat", [1, 2, 3, 4])
    }

    static func initialization(timescale: UInt32, version: UInt8) -> [UInt8] {
        let times = version == 1 ? uint64(0) + uint64(0) : uint32(0) + uint32(0)
        let mdhd = box("mdhd", full(version) + times + uint32(timescale) + uint32(0) + [0x55, 0xC4, 0, 0])
        let trak = box("trak", box("tkhd", full(0) + [UInt8](repeating: 0, count: 80)) + box("mdia", mdhd + box("hdlr", full(0))))
        return box("ftyp", Array("iso6".utf8) + uint32(0)) + box("moov", box("mvhd", full(0) + [UInt8](repeating: 0, count: 96)) + trak)
    }

    @Test("The track's timescale is read from its mdhd, of either version", arguments: [UInt8(0), 1])
    func timescale(version: UInt8) {
        #expect(InitializationSegment.trackTimescale(Self.initialization(timescale: 12_800, version: version)) == 12_800)
        #expect(InitializationSegment.trackTimescale(Self.box("ftyp", [])) == nil)
    }

    @Test("tfdt moves in the track's timescale, sidx in its own; every other byte stays")
    func shifts() {
        let original = Self.segment(decodeTime: 51_200, shortTime: 192_512, earliest: 1_000, sidxTimescale: 1_000)
        let retimed = FragmentRetimer.retimed(original, bySeconds: 80, trackTimescale: 12_800)
        #expect(retimed.count == original.count)
        let expected = Self.segment(decodeTime: 51_200 + 80 * 12_800, shortTime: 192_512 + 80 * 12_800,
                                    earliest: 1_000 + 80 * 1_000, sidxTimescale: 1_000)
        #expect(retimed == expected)
        #expect(FragmentRetimer.retimed(original, bySeconds: 0, trackTimescale: 12_800) == original)
    }

    @Test("A version 0 time wraps at 32 bits, as its field does")
    func wraps() {
        let original = Self.segment(decodeTime: 0, shortTime: UInt32.max - 99, earliest: 0, sidxTimescale: 1)
        let retimed = FragmentRetimer.retimed(original, bySeconds: 1, trackTimescale: 200)
        #expect(retimed == Self.segment(decodeTime: 200, shortTime: 100, earliest: 1, sidxTimescale: 1))
    }

    @Test("Cut short anywhere, a segment is retimed as far as its boxes can be read, never past its end")
    func truncated() {
        let original = Self.segment(decodeTime: 10, shortTime: 10, earliest: 10, sidxTimescale: 1)
        for length in 0..<original.count {
            let cut = Array(original.prefix(length))
            let retimed = FragmentRetimer.retimed(cut, bySeconds: 5, trackTimescale: 1)
            #expect(retimed.count == cut.count)
        }
        for length in 0..<Self.initialization(timescale: 1, version: 1).count {
            _ = InitializationSegment.trackTimescale(Array(Self.initialization(timescale: 9, version: 1).prefix(length)))
        }
    }
}
