import Foundation
import PlaytraceCore
import Testing
@testable import PlaytraceHLS

/// The sample messages of ANSI/SCTE 35 §14 ("Sample SCTE 35 Messages"), with the values the specification gives.
@Suite("SCTE-35 decoding of the specification's samples")
struct SCTE35Tests {
    /// 14.1 time_signal – Placement Opportunity Start.
    @Test func sample14_1() throws {
        let base64 = "/DA0AAAAAAAA///wBQb+cr0AUAAeAhxDVUVJSAAAjn/PAAGlmbAICAAAAAAsoKGKNAIAmsnRfg=="
        let hex = "0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E"
        let section = try SpliceInfoSection(encoded: base64)
        #expect(try SpliceInfoSection(hex: hex) == section)
        #expect(section.protocolVersion == 0 && !section.isEncrypted && section.ptsAdjustment == 0 && section.tier == 0xFFF)
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: 1_924_989_008)))
        #expect(abs((section.adjustedSpliceTime?.seconds ?? 0) - 21388.766756) < 1e-6)
        #expect(section.crc32 == 0x9AC9_D17E)
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.eventID == 1_207_959_694 && !descriptor.isCancelled && descriptor.isProgramSegmentation)
        #expect(descriptor.deliveryRestrictions == .init(webDeliveryAllowed: false, noRegionalBlackout: true,
                                                         archiveAllowed: true, deviceRestrictions: 3))
        #expect(descriptor.duration == 27_630_000 && descriptor.durationSeconds == 307)
        #expect(descriptor.upid == .binary(type: 0x08, [0, 0, 0, 0, 0x2C, 0xA0, 0xA1, 0x8A]))
        #expect(descriptor.typeID == 0x34 && descriptor.typeName == "Provider Placement Opportunity Start")
        #expect(descriptor.segmentNumber == 2 && descriptor.segmentsExpected == 0 && descriptor.startsAd)
    }

    /// 14.2 splice_insert.
    @Test func sample14_2() throws {
        let section = try SpliceInfoSection(encoded: "/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=")
        #expect(try SpliceInfoSection(hex: "0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A") == section)
        guard case .spliceInsert(let insert) = section.command else { Issue.record("not a splice_insert"); return }
        #expect(insert.eventID == 1_207_959_695 && !insert.isCancelled && insert.isOutOfNetwork)
        #expect(insert.isProgramSplice && !insert.isImmediate)
        #expect(insert.spliceTime == SpliceTime(ptsTime: 1_936_310_318))
        #expect(insert.breakDuration == BreakDuration(autoReturn: true, duration: 5_426_421))
        #expect(abs((insert.breakDuration?.seconds ?? 0) - 60.293567) < 1e-6)
        #expect(insert.uniqueProgramID == 0 && insert.availNumber == 0 && insert.availsExpected == 0)
        #expect(section.descriptors == [.avail(providerAvailID: 309)])
        #expect(section.crc32 == 0x62DB_A30A)
    }

    /// 14.3 time_signal – Placement Opportunity End.
    @Test func sample14_3() throws {
        let section = try SpliceInfoSection(encoded: "/DAvAAAAAAAA///wBQb+dGKQoAAZAhdDVUVJSAAAjn+fCAgAAAAALKChijUCAKnMZ1g=")
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: 1_952_616_608)))
        let descriptor = try #require(section.segmentationDescriptors.first)
        #expect(descriptor.eventID == 1_207_959_694 && descriptor.duration == nil)
        #expect(descriptor.typeID == 0x35 && descriptor.endsAd && descriptor.segmentNumber == 2)
        #expect(descriptor.deliveryRestrictions?.webDeliveryAllowed == true)
        #expect(descriptor.upid.description == "TI:0x000000002ca0a18a")
    }

    /// 14.4 time_signal – Program Start/End (two descriptors).
    @Test func sample14_4() throws {
        let section = try SpliceInfoSection(
            encoded: "/DBIAAAAAAAA///wBQb+ek2ItgAyAhdDVUVJSAAAGH+fCAgAAAAALMvDRBEAAAIXQ1VFSUgAABl/nwgIAAAAACyk26AQAACZcuND")
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: 2_051_901_622)))
        let descriptors = section.segmentationDescriptors
        #expect(descriptors.map(\.eventID) == [1_207_959_576, 1_207_959_577])
        #expect(descriptors.map(\.typeID) == [0x11, 0x10])
        #expect(descriptors.map(\.typeName) == ["Program End", "Program Start"])
        #expect(section.crc32 == 0x9972_E343)
    }

    /// 14.5 Program Overlap Start, 14.6 Program Blackout Override / Program End, 14.7 Program End.
    @Test(arguments: [
        ("/DAvAAAAAAAA///wBQb+rr//ZAAZAhdDVUVJSAAACH+fCAgAAAAALKVs9RcAAJUdsKg=", UInt64(2_931_818_340), [UInt32(1_207_959_560)], [UInt8(0x17)]),
        ("/DBIAAAAAAAA///wBQb+ky44CwAyAhdDVUVJSAAACn+fCAgAAAAALKCh4xgAAAIXQ1VFSUgAAAl/nwgIAAAAACygoYoRAAC0IX6w", 2_469_279_755, [1_207_959_562, 1_207_959_561], [0x18, 0x11]),
        ("/DAvAAAAAAAA///wBQb+rvF8TAAZAhdDVUVJSAAAB3+fCAgAAAAALKVslxEAAMSHai4=", 2_935_061_580, [1_207_959_559], [0x11]),
    ])
    func samples14_5to14_7(message: String, pts: UInt64, eventIDs: [UInt32], types: [UInt8]) throws {
        let section = try SpliceInfoSection(encoded: message)
        #expect(section.command == .timeSignal(SpliceTime(ptsTime: pts)))
        #expect(section.segmentationDescriptors.map(\.eventID) == eventIDs)
        #expect(section.segmentationDescriptors.map(\.typeID) == types)
    }

    @Test func crcMismatchIsDetected() throws {
        var bytes = try #require(SCTE35Encoding.hex("0xFC302F000000000000FFFFF014054800008F7FEFFE7369C02EFE0052CCF500000000000A0008435545490000013562DBA30A"))
        bytes[20] ^= 0x01
        #expect {
            try SpliceInfoSection(bytes: bytes)
        } throws: { error in
            if case SCTE35Error.crcMismatch(expected: 0x62DB_A30A, computed: _) = error { return true }
            return false
        }
    }

    @Test(arguments: ["", "0x", "0xZZ", "not base64 at all!", "0xFD3000", "/DA=", "0xFC300F000000000000FFFFF00506FE00"])
    func malformedMessagesAreTypedErrors(text: String) {
        #expect(throws: SCTE35Error.self) { try SpliceInfoSection(encoded: text) }
    }

    /// The byte-level base64 reader agrees with Foundation's on every length and padding, and refuses text that is
    /// not RFC 4648 base64 (Foundation on Linux reads some of it, `====` as one byte).
    @Test func base64MatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let text = Data(bytes).base64EncodedString()
            #expect(SCTE35Encoding.base64(text) == (length == 0 ? nil : bytes), "\(text)")
            #expect(SCTE35Encoding.base64(" \(text)\t") == (length == 0 ? nil : bytes))
        }
        for text in ["/DA", "/D=A", "/=DA", "====", "/DA!", "/DA=/DA=", "/DA=="] {
            #expect(SCTE35Encoding.base64(text) == nil, "\(text)")
        }
    }

    @Test func everyTruncationIsAnErrorNotACrash() throws {
        let full = try #require(SCTE35Encoding.hex("0xFC3048000000000000FFFFF00506FE7A4D88B60032021743554549480000187F9F0808000000002CCBC344110000021743554549480000197F9F0808000000002CA4DBA01000009972E343"))
        for length in 0..<full.count {
            #expect(throws: SCTE35Error.self) { try SpliceInfoSection(bytes: Array(full.prefix(length))) }
        }
    }

    @Test func encoderRoundTrips() throws {
        let insert = try SpliceInfoSection(bytes: SpliceInfoSectionEncoder.spliceInsert(
            eventID: 42, isOutOfNetwork: true, ptsTime: 8_589_934_591, breakDuration: 2_700_000))
        guard case .spliceInsert(let decoded) = insert.command else { Issue.record("not a splice_insert"); return }
        #expect(decoded.eventID == 42 && decoded.spliceTime?.ptsTime == 8_589_934_591 && decoded.breakDuration?.seconds == 30)
        let signal = try SpliceInfoSection(bytes: SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 90_000, segmentationEventID: 9, segmentationTypeID: 0x30, duration: 900_000,
            upidType: 0x0F, upid: Array("urn:ad:1".utf8)))
        let descriptor = try #require(signal.segmentationDescriptors.first)
        #expect(descriptor.upid == .text(type: 0x0F, "urn:ad:1") && descriptor.durationSeconds == 10 && descriptor.typeID == 0x30)
    }

    @Test func ptsAdjustmentWrapsAt33Bits() throws {
        var bytes = SpliceInfoSectionEncoder.spliceInsert(eventID: 1, isOutOfNetwork: true, ptsTime: 8_589_934_000,
                                                          breakDuration: nil)
        // Set pts_adjustment to 1000 ticks: bits 39..71 of the section; rebuild the CRC.
        let adjustment: UInt64 = 1000
        bytes[4] = (bytes[4] & 0xFE) | UInt8((adjustment >> 32) & 1)
        bytes[5] = UInt8((adjustment >> 24) & 0xFF)
        bytes[6] = UInt8((adjustment >> 16) & 0xFF)
        bytes[7] = UInt8((adjustment >> 8) & 0xFF)
        bytes[8] = UInt8(adjustment & 0xFF)
        let body = Array(bytes.dropLast(4))
        let crc = CRC32MPEG2.checksum(body)
        bytes = body + [UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]
        let section = try SpliceInfoSection(bytes: bytes)
        #expect(section.ptsAdjustment == 1000)
        #expect(section.adjustedSpliceTime == MediaTime(seconds: Double((8_589_934_000 + 1000) & 0x1_FFFF_FFFF) / 90_000))
    }
}

/// The bit reader agrees with reading one bit at a time, for every field width at every bit offset.
@Suite("SCTE-35 bit reader")
struct BitReaderTests {
    @Test func fieldsOfEveryWidthAtEveryOffset() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<24).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        func bit(_ index: Int) -> UInt64 { UInt64(bytes[index / 8] >> (7 - index % 8) & 1) }
        for offset in 0..<16 {
            for width in 0...64 {
                var reader = BitReader(bytes)
                try reader.skip(bits: offset)
                let expected = (offset..<(offset + width)).reduce(UInt64(0)) { $0 << 1 | bit($1) }
                #expect(try reader.bits(width) == expected, "width \(width) at bit \(offset)")
                #expect(reader.byteOffset == (offset + width) / 8)
            }
        }
        // Past the end: an error, and nothing read.
        var reader = BitReader(bytes, byteLimit: 2)
        try reader.skip(bits: 3)
        #expect(throws: SCTE35Error.self) { try reader.bits(14) }
        #expect(try reader.bits(13) == (3..<16).reduce(UInt64(0)) { $0 << 1 | bit($1) })
    }
}
