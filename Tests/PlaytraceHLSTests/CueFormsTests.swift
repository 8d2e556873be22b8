import PlaytraceCore
import Testing
@testable import PlaytraceHLS

/// Legacy cue tags as real encoders write them.
@Suite("Cue forms real encoders write")
struct CueFormsTests {
    /// splice_insert, event 1, out of network, break 8 s, PTS 8 s (the lab's message, as base64).
    static let outBase64 = "/DAlAAAAAAAA///wFAUAAAABf+/+AAr8gP4ACvyAAAAAAAAAOoQHlA=="

    static func breaks(_ text: String) throws -> [AdBreakSignal] {
        try PlaylistParser(options: .init(isStrict: true)).parseMediaPlaylist(text).adBreaks
    }

    @Test func envivioCueOutWithDurationIDAndMessage() throws {
        let breaks = try Self.breaks("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-CUE-OUT:DURATION=366,ID=2,CUE="\(Self.outBase64)"
            #EXTINF:4,
            b.ts
            #EXT-X-CUE-IN:ID=2
            #EXTINF:4,
            c.ts
            """)
        #expect(breaks.count == 1)
        #expect(breaks.first?.id == "cue-2")
        #expect(breaks.first?.duration == MediaTime(seconds: 4), "the CUE-IN 4 s later closes the 366 s announced")
        #expect(breaks.first?.startTime == MediaTime(seconds: 4))
        #expect(breaks.first?.isClosed == true)
        if case .spliceInsert(let insert) = breaks.first?.scte35?.command { #expect(insert.eventID == 1) } else {
            Issue.record("the CUE= message was not decoded")
        }
    }

    @Test(arguments: ["#EXT-X-CUE-OUT-CONT:ElapsedTime=7.96,Duration=50,SCTE35=\(outBase64)", "#EXT-X-CUE-OUT-CONT:7.96/50",
                      "#EXT-X-CUE-SPAN:TIMEFROMSIGNAL=PT7.96S,ID=9"])
    func aBreakAlreadyInProgressWhereTheLivePlaylistStarts(marker: String) throws {
        let breaks = try Self.breaks("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:20.000Z
            \(marker)
            #EXTINF:4,
            a.ts
            #EXT-X-CUE-IN
            #EXTINF:4,
            b.ts
            """)
        let signal = try #require(breaks.first)
        #expect(breaks.count == 1)
        #expect(signal.startedBeforeWindow)
        #expect(signal.startTime == MediaTime(seconds: -7.96))
        let expected = try StreamDate(iso8601: "2026-01-01T00:00:12.040Z")
        #expect(abs((signal.startDate?.secondsSince1970 ?? 0) - expected.secondsSince1970) < 0.000_001)
        #expect(signal.isClosed)
        // Announced 50 s; the CUE-IN closes it 4 s into the window, 11.96 s after it began.
        #expect(signal.duration.map { abs($0.seconds - 11.96) < 0.000_001 } == true, "\(String(describing: signal.duration))")
    }

    @Test(arguments: ["#EXT-OATCLS-SCTE35:", "#EXT-X-SPLICEPOINT-SCTE35:"])
    func aStandaloneSCTE35TagOpensABreak(tag: String) throws {
        let playlist = try PlaylistParser(options: .init(isStrict: true)).parseMediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            \(tag)\(Self.outBase64)
            #EXTINF:4,
            b.ts
            """)
        let signal = try #require(playlist.adBreaks.first)
        #expect(signal.source == .scte35Tags)
        #expect(signal.startTime == MediaTime(seconds: 4))
        #expect(signal.duration == MediaTime(seconds: 8))
        #expect(try PlaylistParser().parse(PlaylistWriter().write(.media(playlist))) == .media(playlist))
    }

    @Test func everyFormWritesBackAsItWasRead() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-CUE-OUT:DURATION=366,ID=2,CUE="\(Self.outBase64)"
            #EXTINF:4,
            a.ts
            #EXT-X-CUE-OUT-CONT:7.96/50
            #EXTINF:4,
            b.ts
            #EXT-X-CUE-SPAN:TIMEFROMSIGNAL=PT8S,ID=2
            #EXTINF:4,
            c.ts
            """
        let playlist = try PlaylistParser(options: .init(isStrict: true)).parse(text)
        let written = PlaylistWriter().write(playlist)
        #expect(written.contains("#EXT-X-CUE-OUT:DURATION=366,ID=2,CUE=\"\(Self.outBase64)\""))
        #expect(written.contains("#EXT-X-CUE-SPAN:TIMEFROMSIGNAL=PT8S,ID=2"))
        #expect(try PlaylistParser().parse(written) == playlist)
    }
}
