import PlaytraceCore
import Testing
@testable import PlaytraceHLS

/// RFC 8216bis §4.4.5.1: tags with the same ID are one date range; later tags add attributes, a conflicting value is
/// an error. And the ends of breaks, whatever signals them.
@Suite("Date ranges as the RFC defines them")
struct DateRangeMergingTests {
    private static func parse(_ text: String) throws -> PlaylistParser.Outcome {
        try PlaylistParser().parseWithWarnings(text)
    }

    private static func media(_ text: String) throws -> MediaPlaylist {
        guard case .media(let playlist) = try parse(text).playlist else { throw PlaylistParseError(line: 0, reason: .missingHeader) }
        return playlist
    }

    /// RFC 8216bis's own example (§4.4.5.1.1): the break opens with PLANNED-DURATION and SCTE35-OUT, and a later tag
    /// with the same ID and no START-DATE gives the DURATION and SCTE35-IN.
    static let rfcExample = """
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PROGRAM-DATE-TIME:2014-03-05T11:14:50Z
        #EXTINF:10,
        s0.ts
        #EXT-X-DATERANGE:ID="splice-6FFFFFF0",START-DATE="2014-03-05T11:15:00Z",PLANNED-DURATION=59.993,SCTE35-OUT=0xFC002F0000000000FF000014056FFFFFF000E011622DCAFF000052636200000000000A0008029896F50000008700000000
        #EXTINF:10,
        s1.ts
        #EXTINF:10,
        s2.ts
        #EXT-X-DATERANGE:ID="splice-6FFFFFF0",DURATION=59.993,SCTE35-IN=0xFC002A0000000000FF00000F056FFFFFF000401162802E6100000000000A0008029896F50000008700000000
        #EXTINF:10,
        s3.ts
        #EXT-X-ENDLIST
        """

    @Test("The RFC's SCTE-35 example: two tags, one range, closed with its DURATION")
    func rfcExample() throws {
        let playlist = try Self.media(Self.rfcExample)
        let merged = DateRange.merged(playlist.dateRanges)
        #expect(merged.count == 1)
        let range = try #require(merged.first)
        #expect(range.plannedDuration == MediaTime(seconds: 59.993) && range.duration == MediaTime(seconds: 59.993))
        #expect(range.scte35Out != nil && range.scte35In != nil)
        let signal = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1 && signal.isClosed && signal.duration == MediaTime(seconds: 59.993))
        #expect(try Self.parse(Self.rfcExample).warnings.isEmpty)
    }

    @Test("A live break closed by a later tag's END-DATE lasts until it, not its planned duration")
    func laterEndDateCloses() throws {
        let playlist = try Self.media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",PLANNED-DURATION=30,SCTE35-OUT=0xFC
            #EXTINF:6,
            s0.ts
            #EXTINF:6,
            s1.ts
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",END-DATE="2026-01-01T00:00:24Z"
            #EXTINF:6,
            s2.ts
            """)
        let signal = try #require(playlist.adBreaks.first)
        #expect(signal.isClosed)
        #expect(signal.duration == MediaTime(seconds: 18), "\(String(describing: signal.duration))")
        #expect(DateRange.merged(playlist.dateRanges).first?.effectiveEndDate == (try StreamDate(iso8601: "2026-01-01T00:00:24Z")))
    }

    @Test("A conflicting value is a warning with its line; the earlier value stays")
    func conflicts() throws {
        let outcome = try Self.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",DURATION=30,X-AD="one"
            #EXTINF:6,
            s0.ts
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",DURATION=18,X-AD="two",X-MORE="yes"
            #EXTINF:6,
            s1.ts
            """)
        #expect(outcome.warnings.map(\.line) == [7])
        #expect(outcome.warnings.first?.message.contains("DURATION, X-AD another value") == true, "\(outcome.warnings)")
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        let range = try #require(DateRange.merged(playlist.dateRanges).first)
        #expect(range.duration == MediaTime(seconds: 30) && range.clientAttributes["X-AD"] == .quoted("one"))
        #expect(range.clientAttributes["X-MORE"] == .quoted("yes"), "attributes only the later tag has are added")
    }

    @Test("A break opened by SCTE35-OUT is closed by a later tag's SCTE35-CMD that ends it; the range keeps both")
    func laterCommandCloses() throws {
        let start = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 900_000, segmentationEventID: 9, segmentationTypeID: 0x34, duration: 20 * 90_000))
        let end = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
            ptsTime: 2_700_000, segmentationEventID: 9, segmentationTypeID: 0x35, duration: nil))
        let outcome = try Self.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",PLANNED-DURATION=20,SCTE35-OUT=\(start)
            #EXTINF:6,
            s0.ts
            #EXT-X-DATERANGE:ID="b1",START-DATE="2026-01-01T00:00:06Z",SCTE35-CMD=\(end)
            #EXTINF:6,
            s1.ts
            """)
        #expect(outcome.warnings.isEmpty, "\(outcome.warnings)")
        guard case .media(let playlist) = outcome.playlist else { Issue.record("not a media playlist"); return }
        let range = try #require(DateRange.merged(playlist.dateRanges).first)
        #expect(range.scte35Out == start && range.scte35Command == end)
        let signal = try #require(playlist.adBreaks.first)
        #expect(playlist.adBreaks.count == 1 && signal.isClosed && signal.duration == MediaTime(seconds: 20))
    }

    @Test("END-ON-NEXT: a break ends where the next range of its class starts")
    func endOnNext() throws {
        let playlist = try Self.media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="b1",CLASS="com.example.ad",START-DATE="2026-01-01T00:00:06Z",END-ON-NEXT=YES,SCTE35-OUT=0xFC
            #EXTINF:6,
            s0.ts
            #EXTINF:6,
            s1.ts
            #EXT-X-DATERANGE:ID="b2",CLASS="com.example.ad",START-DATE="2026-01-01T00:00:20Z",END-ON-NEXT=YES,SCTE35-OUT=0xFC
            #EXTINF:6,
            s2.ts
            """)
        let breaks = playlist.adBreaks
        #expect(breaks.map(\.id) == ["b1", "b2"])
        #expect(breaks.first?.isClosed == true && breaks.first?.duration == MediaTime(seconds: 14))
        #expect(breaks.last?.isClosed == false, "nothing follows the last one yet")
    }

    @Test("A CUE-IN 40 s after a CUE-OUT:366 closes it: 40 s")
    func cueInClosesCueOut() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-CUE-OUT:366\n"
        for index in 0..<4 { text += "#EXTINF:10,\ns\(index).ts\n" }
        text += "#EXT-X-CUE-IN\n#EXTINF:10,\ns4.ts\n"
        let signal = try #require(try Self.media(text).adBreaks.first)
        #expect(signal.isClosed && signal.duration == MediaTime(seconds: 40))
    }

    @Test("SCTE-35 segmentation ends close what their start opened: Break End 0x23, Provider Placement Opportunity End 0x35")
    func segmentationEnds() throws {
        for (start, end) in [(UInt8(0x22), UInt8(0x23)), (0x34, 0x35), (0x30, 0x31)] {
            let open = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
                ptsTime: 90_000, segmentationEventID: 5, segmentationTypeID: start, duration: 30 * 90_000))
            let close = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.timeSignal(
                ptsTime: 2 * 90_000, segmentationEventID: 5, segmentationTypeID: end, duration: nil))
            let signal = try #require(try Self.media("""
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-OATCLS-SCTE35:\(open)
                #EXTINF:10,
                s0.ts
                #EXTINF:10,
                s1.ts
                #EXT-OATCLS-SCTE35:\(close)
                #EXTINF:10,
                s2.ts
                """).adBreaks.first, "type 0x\(String(start, radix: 16)) opens a break")
            #expect(signal.isClosed && signal.duration == MediaTime(seconds: 20), "0x\(String(end, radix: 16)) closes it")
        }
        let pairs = [(0x10, 0x11), (0x20, 0x21), (0x22, 0x23), (0x34, 0x35), (0x36, 0x37)]
        for (start, end) in pairs {
            let descriptor = SegmentationDescriptor(
                eventID: 1, isCancelled: false, isProgramSegmentation: true, deliveryRestrictions: nil, components: [],
                duration: nil, upid: .none, typeID: UInt8(end), segmentNumber: 0, segmentsExpected: 0)
            #expect(descriptor.closedStartTypeID == UInt8(start))
        }
    }

    /// SCTE 35's own samples (its examples section): a time_signal with a Provider Placement Opportunity Start
    /// (0x34, 307 s, segmentation event 0x4800008E), and the time_signal with its End (0x35).
    static let placementOpportunityStart = "0xFC3034000000000000FFFFF00506FE72BD0050001E021C435545494800008E7FCF0001A599B00808000000002CA0A18A3402009AC9D17E"
    static let placementOpportunityEnd = "0xFC302F000000000000FFFFF00506FE746290A000190217435545494800008E7F9F0808000000002CA0A18A350200A9CC6758"

    @Test("SCTE 35's samples in two date ranges: the Placement Opportunity End closes the Start's break, and is no break of its own")
    func scte35SamplesInDateRanges() throws {
        let playlist = try Self.media("""
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
            #EXT-X-DATERANGE:ID="po-1",START-DATE="2026-01-01T00:00:10Z",SCTE35-CMD=\(Self.placementOpportunityStart)
            #EXTINF:10,
            s0.ts
            #EXTINF:10,
            s1.ts
            #EXTINF:10,
            s2.ts
            #EXT-X-DATERANGE:ID="po-1-end",START-DATE="2026-01-01T00:00:30Z",SCTE35-CMD=\(Self.placementOpportunityEnd)
            #EXTINF:10,
            s3.ts
            #EXT-X-ENDLIST
            """)
        let breaks = playlist.adBreaks
        #expect(breaks.map(\.id) == ["po-1"], "\(breaks.map(\.id))")
        #expect(breaks.first?.isClosed == true && breaks.first?.duration == MediaTime(seconds: 20), "not its announced 307 s")
        let end = try SpliceInfoSection(encoded: Self.placementOpportunityEnd)
        #expect(end.segmentationDescriptors.first?.typeID == 0x35 && end.segmentationDescriptors.first?.endsAd == true)
        #expect(end.segmentationDescriptors.first?.closedStartTypeID == 0x34)
    }
}
