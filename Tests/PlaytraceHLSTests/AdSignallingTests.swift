import PlaytraceCore
import Testing
@testable import PlaytraceHLS

@Suite("Ad signalling: DATERANGE, interstitials, cue tags")
struct AdSignallingTests {
    static let outHex = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.spliceInsert(
        eventID: 7, isOutOfNetwork: true, ptsTime: 720_000, breakDuration: 30 * 90_000))
    static let inHex = SpliceInfoSectionEncoder.hex(SpliceInfoSectionEncoder.spliceInsert(
        eventID: 7, isOutOfNetwork: false, ptsTime: 3_420_000, breakDuration: nil))

    static var text: String {
        """
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00.000Z
        #EXTINF:10,
        s0.ts
        #EXT-X-DATERANGE:ID="splice-7",START-DATE="2026-11-21T10:00:10.000Z",PLANNED-DURATION=30,SCTE35-OUT=\(outHex),X-COM-EXAMPLE-AD-ID="a1"
        #EXT-X-CUE-OUT:30
        #EXT-OATCLS-SCTE35:/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=
        #EXTINF:10,
        s1.ts
        #EXT-X-CUE-OUT-CONT:ElapsedTime=10,Duration=30,SCTE35=/DAvAAAAAAAA///wFAVIAACPf+/+c2nALv4AUsz1AAAAAAAKAAhDVUVJAAABNWLbowo=
        #EXTINF:10,
        s2.ts
        #EXT-X-CUE-OUT-CONT:20/30
        #EXTINF:10,
        s3.ts
        #EXT-X-DATERANGE:ID="splice-7",START-DATE="2026-11-21T10:00:10.000Z",DURATION=30,SCTE35-IN=\(inHex)
        #EXT-X-CUE-IN
        #EXTINF:10,
        s4.ts
        #EXT-X-DATERANGE:ID="pod-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-21T10:00:45.000Z",DURATION=15,CUE="ONCE",X-ASSET-LIST="https://ads.example/list.json",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=20,X-SNAP="OUT,IN",X-RESTRICT="SKIP,JUMP",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID="skip",X-TIMELINE-OCCUPIES="RANGE",X-TIMELINE-STYLE="HIGHLIGHT",X-CONTENT-MAY-VARY="NO"
        #EXTINF:10,
        s5.ts
        #EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-11-21T10:00:00.000Z",CUE="PRE",X-ASSET-URI="https://ads.example/pre.m3u8"
        #EXT-X-DATERANGE:ID="chapter",CLASS="com.example.chapter",START-DATE="2026-11-21T10:00:00.000Z",END-ON-NEXT=YES
        #EXT-X-ENDLIST
        """
    }

    @Test func readsDateRangesWithSCTE35() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(Self.text)
        let out = try #require(playlist.segments[1].dateRanges.first)
        #expect(out.id == "splice-7" && out.plannedDuration == 30 && out.duration == nil)
        #expect(out.startDate == (try StreamDate(iso8601: "2026-11-21T10:00:10Z")))
        #expect(out.scte35Out == Self.outHex)
        #expect(out.clientAttributes["X-COM-EXAMPLE-AD-ID"] == .quoted("a1"))
        #expect(out.signalsAdBreak)
        let section = try SpliceInfoSection(encoded: try #require(out.scte35Out))
        guard case .spliceInsert(let insert) = section.command else { Issue.record("not a splice_insert"); return }
        #expect(insert.eventID == 7 && insert.isOutOfNetwork && insert.breakDuration?.seconds == 30)
        #expect(section.adjustedSpliceTime == MediaTime(seconds: 8))
        let closing = try #require(playlist.segments[4].dateRanges.first)
        #expect(closing.scte35In == Self.inHex && closing.duration == 30)
    }

    @Test func readsInterstitialAttributes() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(Self.text)
        let range = try #require(playlist.dateRanges.first { $0.id == "pod-1" })
        #expect(range.cue == .once)
        let interstitial = try #require(range.interstitial)
        #expect(interstitial.assetList == "https://ads.example/list.json" && interstitial.assetURI == nil && interstitial.isValid)
        #expect(interstitial.resumeOffset == .zero && interstitial.playoutLimit == 20)
        #expect(interstitial.snap == [.out, .in] && interstitial.restrictions == [.skip, .jump])
        #expect(interstitial.skipControlOffset == 5 && interstitial.skipControlDuration == 10)
        #expect(interstitial.skipControlLabelID == "skip" && interstitial.timelineOccupies == "RANGE")
        #expect(interstitial.timelineStyle == "HIGHLIGHT" && interstitial.contentMayVary == false)
        #expect(Interstitial(interstitial.attributes) == interstitial, "typed attributes write back to the same value")
        let preroll = try #require(playlist.trailingTags.dateRanges.first { $0.id == "pre" })
        #expect(preroll.cue == .pre && preroll.interstitial?.assetURI == "https://ads.example/pre.m3u8")
        let chapter = try #require(playlist.trailingTags.dateRanges.first { $0.id == "chapter" })
        #expect(chapter.endOnNext && chapter.interstitial == nil && !chapter.signalsAdBreak)
    }

    @Test func readsCueTags() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(Self.text)
        #expect(playlist.segments[1].cueOut == CueOut(duration: 30))
        #expect(playlist.segments[1].oatclsSCTE35?.hasPrefix("/DAv") == true)
        let continuation = try #require(playlist.segments[2].cueOutContinuation)
        #expect(continuation.elapsed == 10 && continuation.duration == 30 && continuation.scte35?.hasPrefix("/DAv") == true)
        let short = try #require(playlist.segments[3].cueOutContinuation)
        #expect(short.elapsed == 20 && short.duration == 30)
        #expect(playlist.segments[4].isCueIn)
    }

    @Test func extractsAdBreaksFromEverySignalling() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(Self.text)
        let breaks = playlist.adBreaks
        let scte = try #require(breaks.first { $0.id == "splice-7" })
        #expect(scte.source == .dateRangeSCTE35 && scte.startTime == 10 && scte.duration == 30 && scte.isClosed)
        #expect(scte.scte35 != nil && scte.timeRange == MediaTimeRange(start: 10, end: 40))
        let cue = try #require(breaks.first { $0.source == .cueTags })
        #expect(cue.startTime == 10 && cue.duration == 30 && cue.isClosed)
        #expect(cue.startDate == (try StreamDate(iso8601: "2026-11-21T10:00:10Z")))
        if case .spliceInsert(let insert) = cue.scte35?.command { #expect(insert.eventID == 1_207_959_695) } else {
            Issue.record("the OATCLS message should decode")
        }
        let pod = try #require(breaks.first { $0.id == "pod-1" })
        #expect(pod.source == .interstitial && pod.startTime == 45 && pod.duration == 15 && pod.interstitial != nil)
        let preroll = try #require(breaks.first { $0.id == "pre" })
        #expect(preroll.startTime == 0 && preroll.duration == nil)
    }

    @Test func openCueOutWithoutCueInStaysOpen() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist(
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-CUE-OUT\n#EXTINF:4,\nb.ts\n")
        let signal = try #require(playlist.adBreaks.first)
        #expect(!signal.isClosed && signal.duration == nil && signal.startTime == 4)
    }

    @Test func undecodableSCTE35IsReportedNotFatal() throws {
        let playlist = try PlaylistParser().parseMediaPlaylist("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-11-21T10:00:00Z
            #EXT-X-DATERANGE:ID="x",START-DATE="2026-11-21T10:00:00Z",SCTE35-OUT=0xFC3000
            #EXTINF:4,
            a.ts
            """)
        let signal = try #require(playlist.adBreaks.first)
        #expect(signal.scte35 == nil && signal.scte35Error != nil)
    }

    @Test(arguments: [
        ("ID=\"a\"", PlaylistParseError.Reason.missingAttribute(tag: "#EXT-X-DATERANGE", attribute: "START-DATE")),
        ("START-DATE=\"2026-11-21T10:00:00Z\"", .missingAttribute(tag: "#EXT-X-DATERANGE", attribute: "ID")),
        ("ID=\"a\",START-DATE=\"2026-11-21T10:00:00Z\",END-DATE=\"2026-11-21T09:00:00Z\"", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "END-DATE", value: "2026-11-21T09:00:00.000Z")),
        ("ID=\"a\",START-DATE=\"2026-11-21T10:00:00Z\",DURATION=-3", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "DURATION", value: "-3.0")),
        ("ID=\"a\",START-DATE=\"2026-11-21T10:00:00Z\",END-ON-NEXT=YES", .missingAttribute(tag: "#EXT-X-DATERANGE", attribute: "CLASS")),
        ("ID=\"a\",CLASS=\"c\",START-DATE=\"2026-11-21T10:00:00Z\",END-ON-NEXT=YES,DURATION=3", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "END-ON-NEXT", value: "YES")),
        ("ID=\"a\",START-DATE=\"2026-11-21T10:00:00Z\",CUE=\"PRE,POST\"", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "CUE", value: "PRE,POST")),
        ("ID=\"a\",START-DATE=\"2026-11-21T10:00:00Z\",CUE=\"SOON\"", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "CUE", value: "SOON")),
        ("ID=\"a\",START-DATE=\"not a date\"", .invalidAttribute(tag: "#EXT-X-DATERANGE", attribute: "START-DATE", value: "not a date")),
        ("ID=\"a,START-DATE=\"2026-11-21T10:00:00Z\"", .malformedAttributeList(tag: "#EXT-X-DATERANGE")),
    ])
    func malformedDateRanges(attributes: String, reason: PlaylistParseError.Reason) {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DATERANGE:\(attributes)\n#EXTINF:4,\na.ts"
        expectProblem(text, reason, line: 3)
    }

    @Test func assetListsDecode() throws {
        let list = try InterstitialAssetList(json: Data(#"{"ASSETS":[{"URI":"a.m3u8","DURATION":10.5}],"X-OTHER":1}"#.utf8))
        #expect(list.assets == [InterstitialAssetList.Asset(uri: "a.m3u8", duration: 10.5)])
        #expect(throws: (any Error).self) { try InterstitialAssetList(json: Data("{}".utf8)) }
    }
}

import Foundation
