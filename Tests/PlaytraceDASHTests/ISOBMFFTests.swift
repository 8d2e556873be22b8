import Foundation
import PlaytraceCore
import PlaytraceDASH
import Testing

@Suite("ISO BMFF, walked defensively: boxes, emsg v0 and v1, prft")
struct ISOBMFFTests {
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload
    }

    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
    static func cString(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    static let splice: [UInt8] = [0xFC, 0x30, 0x11, 0x00]

    @Test("A segment's top-level emsg boxes, version 0 and 1, before its moof")
    func eventMessages() throws {
        let v0 = Self.box("emsg", [0, 0, 0, 0] + Self.cString("urn:scte:scte35:2013:bin") + Self.cString("1")
                                 + Self.be32(90_000) + Self.be32(180_000) + Self.be32(2_700_000) + Self.be32(7) + Self.splice)
        let v1 = Self.box("emsg", [1, 0, 0, 0] + Self.be32(1_000) + Self.be64(1 << 40) + Self.be32(.max) + Self.be32(8)
                                 + Self.cString("urn:mpeg:dash:event:2012") + Self.cString("1"))
        let segment = Self.box("styp", Array("msdh".utf8)) + v0 + v1 + Self.box("moof", []) + Self.box("mdat", [1, 2, 3])
        let (messages, problems) = EventMessage.messages(inSegment: segment)
        #expect(problems.isEmpty)
        #expect(messages.count == 2)
        #expect(messages[0].schemeIdURI == "urn:scte:scte35:2013:bin" && messages[0].value == "1")
        #expect(messages[0].time == .delta(180_000) && messages[0].duration == 2_700_000 && messages[0].id == 7)
        #expect(messages[0].messageData == Self.splice, "SCTE-35 in emsg is binary, not base64")
        #expect(messages[1].time == .absolute(1 << 40) && messages[1].duration == nil && messages[1].timescale == 1_000)
        #expect(BoxWalk(segment).boxes.map(\.type) == ["styp", "emsg", "emsg", "moof", "mdat"])
    }

    @Test("Malformed: a size below the header, past the end, a 64-bit size, size 0, uuid, unknown versions, no NUL")
    func malformed() throws {
        let tooSmall = Self.be32(4) + Array("free".utf8)
        #expect(BoxWalk(tooSmall).boxes.isEmpty && BoxWalk(tooSmall).problem?.contains("less than its header") == true)
        let tooLarge = Self.box("moof", []) + Self.be32(1_000) + Array("mdat".utf8) + [1, 2]
        let walk = BoxWalk(tooLarge)
        #expect(walk.boxes.map(\.type) == ["moof"] && walk.problem?.contains("only 10 are left") == true)
        let large = Self.be32(1) + Array("mdat".utf8) + Self.be64(20) + [9, 9, 9, 9]
        let largeBox = try #require(BoxWalk(large).boxes.first)
        #expect(largeBox.size == 20 && largeBox.headerSize == 16 && Array(largeBox.payload(in: large)) == [9, 9, 9, 9])
        let hugeLarge = Self.be32(1) + Array("mdat".utf8) + Self.be64(.max)
        #expect(BoxWalk(hugeLarge).boxes.isEmpty && BoxWalk(hugeLarge).problem != nil)
        let toEnd = Self.box("ftyp", []) + Self.be32(0) + Array("mdat".utf8) + [1, 2, 3]
        #expect(BoxWalk(toEnd).boxes.last?.type == "mdat" && BoxWalk(toEnd).boxes.last?.size == 11)
        let uuid = Self.be32(24 + 2) + Array("uuid".utf8) + [UInt8](repeating: 0xAB, count: 16) + [5, 6]
        let uuidBox = try #require(BoxWalk(uuid).boxes.first)
        #expect(uuidBox.headerSize == 24 && Array(uuidBox.payload(in: uuid)) == [5, 6])
        #expect(BoxWalk(Array(uuid.prefix(20))).problem != nil, "a uuid box shorter than its user type")

        #expect(throws: EventMessage.ReadError.self) { try EventMessage(ArraySlice([2, 0, 0, 0])) }
        #expect(throws: EventMessage.ReadError.self) { try EventMessage(ArraySlice([0, 0, 0, 0] + Array("no-nul".utf8))) }
        #expect(throws: EventMessage.ReadError.self) {
            try EventMessage(ArraySlice([0, 0, 0, 0] + Self.cString("s") + Self.cString("") + Self.be32(0) + Self.be32(0) + Self.be32(0) + Self.be32(0)))
        }
        let broken = Self.box("emsg", [0, 0, 0, 0]) + Self.box("moof", [])
        let (messages, problems) = EventMessage.messages(inSegment: broken)
        #expect(messages.isEmpty && problems.count == 1 && problems[0].hasPrefix("offset 0: "))
    }

    @Test("prft: the encoder's wall clock for a media time, from NTP")
    func producerReferenceTime() throws {
        // 2026-01-01T00:00:00.5Z in NTP: seconds since 1900, and half a second as the fraction.
        let seconds = UInt64(1_767_225_600) + 2_208_988_800
        let payload: [UInt8] = [1, 0, 0, 0] + Self.be32(1) + Self.be64(seconds << 32 | 0x8000_0000) + Self.be64(123_456)
        let prft = try #require(ProducerReferenceTimeBox(ArraySlice(payload)))
        #expect(prft.referenceTrackID == 1 && prft.mediaTime == 123_456)
        #expect(prft.date == (try StreamDate(iso8601: "2026-01-01T00:00:00.5Z")))
        #expect(ProducerReferenceTimeBox(ArraySlice([2, 0, 0, 0] + Self.be32(1) + Self.be64(0) + Self.be32(0))) == nil)
        #expect(ProducerReferenceTimeBox(ArraySlice([0, 0, 0, 0, 0])) == nil)
    }

    @Test("A segment's producer time: its prft against its first tfdt, moved by the track's timescale when they differ")
    func segmentProducerTime() throws {
        let seconds = UInt64(1_767_225_600) + 2_208_988_800
        func prft(mediaTime: UInt64) -> [UInt8] {
            Self.box("prft", [1, 0, 0, 0] + Self.be32(1) + Self.be64(seconds << 32) + Self.be64(mediaTime))
        }
        let moofV1 = Self.box("moof", Self.box("mfhd", [0, 0, 0, 0] + Self.be32(1))
                                    + Self.box("traf", Self.box("tfhd", [0, 0, 0, 0] + Self.be32(1)) + Self.box("tfdt", [1, 0, 0, 0] + Self.be64(900_000))))
        let moofV0 = Self.box("moof", Self.box("traf", Self.box("tfdt", [0, 0, 0, 0] + Self.be32(900_000))))
        let at = try StreamDate(iso8601: "2026-01-01T00:00:00Z")

        let same = try #require(SegmentProducerTime(segment: Self.box("styp", []) + prft(mediaTime: 900_000) + moofV1 + Self.box("mdat", [])))
        #expect(same.decodeTime == 900_000 && same.producerDate(timescale: nil) == at, "at the first sample: no timescale needed")
        // The reference 1 s (90,000 ticks) before the first sample: that sample was made 1 s after its wall clock.
        let before = try #require(SegmentProducerTime(segment: prft(mediaTime: 810_000) + moofV0))
        #expect(before.decodeTime == 900_000)
        #expect(before.producerDate(timescale: nil) == nil, "another media time needs the track's timescale")
        #expect(before.producerDate(timescale: 90_000) == at + MediaTime(seconds: 1))
        #expect(SegmentProducerTime(segment: prft(mediaTime: 0)) == nil, "no fragment")
        #expect(SegmentProducerTime(segment: moofV1) == nil, "no prft")
        #expect(SegmentProducerTime(segment: prft(mediaTime: 0) + Self.box("moof", Self.box("traf", Self.box("tfdt", [1, 0, 0, 0])))) == nil,
                "a tfdt too short for its version")
        #expect(SegmentProducerTime.decodeTime(ofSegment: Self.box("sidx", []) + moofV0) == 900_000)
    }
}
