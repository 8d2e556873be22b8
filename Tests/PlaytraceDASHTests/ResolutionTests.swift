import Foundation
import PlaytraceCore
import PlaytraceDASH
import Testing

@Suite("MPD resolution: periods placed, attributes inherited, base URLs resolved, segments computed when asked")
struct ResolutionTests {
    static let url = URL(string: "https://origin.example/shows/a/manifest.mpd?token=1")!

    static func resolve(_ text: String, url: URL = url) throws -> ResolvedPresentation {
        ResolvedPresentation(try MPDParser().parse(Data(text.utf8)), url: url)
    }

    static func mpd(_ type: String = "static", _ attributes: String = "", _ body: String) -> String {
        """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" \(attributes)>
        \(body)
        </MPD>
        """
    }

    static let video = """
        <AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$Number$.m4s" duration="2" />
        <Representation id="v" bandwidth="1"/></AdaptationSet>
        """

    @Test("Period starts follow ISO/IEC 23009-1's five rules; a period of no length or without a start is left out")
    func periodStarts() throws {
        let onDemand = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT100S""#, """
            <Period id="a" duration="PT30S">\(Self.video)</Period>
            <Period id="b" duration="PT20S">\(Self.video)</Period>
            <Period id="c" start="PT60S">\(Self.video)</Period>
            <Period id="empty" start="PT100S" duration="PT0S">\(Self.video)</Period>
            """))
        #expect(onDemand.periods.map(\.id) == ["a", "b", "c"])
        #expect(onDemand.periods.map(\.start) == [.zero, .seconds(30), .seconds(60)])
        // The next start wins over @duration (b's end is c's start: a gap of 10 s is b's); the last runs to the end.
        #expect(onDemand.periods.map(\.end) == [.seconds(30), .seconds(60), .seconds(100)])
        #expect(onDemand.problems.contains { $0.message.contains("no length") })

        let live = try Self.resolve(Self.mpd("dynamic", #"availabilityStartTime="2026-01-01T00:00:00Z""#, """
            <Period id="early">\(Self.video)</Period>
            <Period id="live" start="PT10S">\(Self.video)</Period>
            """))
        #expect(live.periods.map(\.id) == ["live"], "an early available period is not part of the presentation")
        #expect(live.periods.first?.end == nil, "the last period of a live presentation is open")
        #expect(live.problems.contains { $0.line == 2 && $0.message.contains("early available") })
    }

    @Test("Segment information is inherited attribute by attribute, Representation before AdaptationSet before Period")
    func inheritance() throws {
        let presentation = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT10S""#, """
            <Period id="p">
              <SegmentTemplate timescale="1000" startNumber="5" />
              <AdaptationSet mimeType="video/mp4" codecs="avc1.64001f" frameRate="25">
                <SegmentTemplate media="$RepresentationID$/$Number%03d$.m4s" initialization="$RepresentationID$/init.mp4" duration="4000" />
                <Representation id="hd" bandwidth="3000000" width="1280"><SegmentTemplate startNumber="7" /></Representation>
                <Representation id="sd" bandwidth="800000" codecs="avc1.4d401e"/>
              </AdaptationSet>
            </Period>
            """))
        let representations = try #require(presentation.periods.first?.adaptationSets.first?.representations)
        let hd = representations[0], sd = representations[1]
        #expect(hd.segments.segment(at: 0)?.path == "hd/007.m4s")
        #expect(sd.segments.segment(at: 0)?.path == "sd/005.m4s", "the period's startNumber")
        #expect(hd.segments.initialization?.path == "hd/init.mp4")
        #expect(hd.segments.count == 3, "10 s of 4 s segments: the last is cut")
        #expect(hd.segments.segment(at: 2)?.duration == .seconds(2))
        #expect(hd.attributes.codecs == "avc1.64001f" && sd.attributes.codecs == "avc1.4d401e")
        #expect(hd.attributes.frameRate?.description == "25" && hd.attributes.mimeType == "video/mp4")
        #expect(presentation.periods.first?.adaptationSets.first?.kind == .video)
    }

    @Test("BaseURLs: relative ones resolve against every location above, an absolute one replaces them, all kept for failover")
    func baseURLs() throws {
        let presentation = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT4S""#, """
            <BaseURL serviceLocation="a">https://a.example/root/</BaseURL>
            <BaseURL serviceLocation="b">https://b.example/root/</BaseURL>
            <Period id="p">
              <BaseURL>period/</BaseURL>
              <AdaptationSet mimeType="audio/mp4" lang="fr">
                <SegmentTemplate media="$Number$.m4a" duration="2" />
                <Representation id="relative" bandwidth="1"><BaseURL>audio/</BaseURL></Representation>
                <Representation id="absolute" bandwidth="1"><BaseURL availabilityTimeOffset="1.5">https://c.example/x/</BaseURL></Representation>
                <Representation id="inherited" bandwidth="1"/>
              </AdaptationSet>
            </Period>
            """))
        let set = try #require(presentation.periods.first?.adaptationSets.first)
        #expect(set.kind == .audio && set.lang == "fr")
        let relative = set.representations[0], absolute = set.representations[1], inherited = set.representations[2]
        #expect(relative.baseURLs.map(\.url.absoluteString) == ["https://a.example/root/period/audio/", "https://b.example/root/period/audio/"])
        #expect(relative.baseURLs.map(\.serviceLocation) == ["a", "b"])
        #expect(absolute.baseURLs.map(\.url.absoluteString) == ["https://c.example/x/"])
        #expect(absolute.baseURLs.first?.availabilityTimeOffset == 1.5)
        #expect(inherited.baseURLs.count == 2)
        let segment = try #require(relative.segments.segment(at: 1))
        #expect(segment.urls(at: relative.baseURLs).map(\.absoluteString)
                == ["https://a.example/root/period/audio/2.m4a", "https://b.example/root/period/audio/2.m4a"])

        // Without BaseURL, segments are relative to the MPD's own URL (its query is not carried over).
        let bare = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT4S""#, "<Period>\(Self.video)</Period>"))
        let representation = try #require(bare.periods.first?.adaptationSets.first?.representations.first)
        #expect(representation.segments.segment(at: 0)?.urls(at: representation.baseURLs).first?.absoluteString
                == "https://origin.example/shows/a/1.m4s")
        #expect(bare.problems.contains { $0.message.contains("known as index-0") })
    }

    @Test("A $Number$ template over a year of one-second segments is two numbers: no segment is made until asked")
    func yearOfSegments() throws {
        let presentation = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="P365D""#, """
            <Period id="p"><AdaptationSet mimeType="video/mp4">
              <SegmentTemplate media="s$Number$.m4s" timescale="90000" duration="90000" />
              <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            """))
        let segments = try #require(presentation.periods.first?.adaptationSets.first?.representations.first?.segments)
        #expect(segments.count == 31_536_000)
        #expect(segments.segment(at: 31_535_999)?.path == "s31536000.m4s")
        #expect(segments.segment(at: 31_536_000) == nil)
        #expect(segments.index(containing: .seconds(86_400) + .milliseconds(500)) == 86_400)
        let hour = segments.segments(overlapping: .seconds(3_600) ..< .seconds(3_605), limit: 100)
        #expect(hour.map(\.number) == [3_601, 3_602, 3_603, 3_604, 3_605])
    }

    @Test("Timeline segments: MPD time = period start + (S@t − @presentationTimeOffset) / timescale; $Time$ is S@t as written")
    func timelineTimes() throws {
        let presentation = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT20S""#, """
            <Period id="p" start="PT10S"><AdaptationSet mimeType="video/mp4">
              <SegmentTemplate media="t$Time$.m4s" timescale="90000" presentationTimeOffset="900000">
                <SegmentTimeline><S t="900000" d="180000" r="2"/><S d="90000" r="-1"/></SegmentTimeline>
              </SegmentTemplate>
              <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            """))
        let segments = try #require(presentation.periods.first?.adaptationSets.first?.representations.first?.segments)
        let first = try #require(segments.segment(at: 0))
        #expect(first.start == .seconds(10) && first.duration == .seconds(2) && first.path == "t900000.m4s")
        // The period lasts 10 s: three 2 s segments, then 1 s ones repeated to its end.
        #expect(segments.count == 7)
        #expect(segments.segment(at: 6)?.path == "t1710000.m4s")
        #expect(segments.index(containing: .seconds(17) + .milliseconds(10)) == 4)
    }

    @Test("Live availability: segments whose end lies in [now − timeShiftBufferDepth, now], found without listing the window")
    func availability() throws {
        let presentation = try Self.resolve(Self.mpd("dynamic", """
            availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT30S" minimumUpdatePeriod="PT10S"
            """, """
            <Period id="live" start="PT0S"><AdaptationSet mimeType="video/mp4">
              <SegmentTemplate media="$Number$.m4s" timescale="1000" duration="2000" startNumber="0"/>
              <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            """))
        let segments = try #require(presentation.periods.first?.adaptationSets.first?.representations.first?.segments)
        #expect(segments.count == nil, "a live period addressed by @duration has no end")
        let start = try StreamDate(iso8601: "2026-01-01T00:00:00Z")
        let window = AvailabilityWindow(presentation, at: StreamDate(secondsSince1970: start.secondsSince1970 + 3_601))
        let range = try #require(window.available(in: segments))
        // Now is 3,601 s: the newest complete segment ends at 3,600 s (number 1,799); the oldest ends at 3,571 s or
        // later (number 1,785 ends at 3,572 s).
        #expect(segments.segment(at: range.upperBound)?.number == 1_799)
        #expect(segments.segment(at: range.lowerBound)?.number == 1_785)
        #expect(AvailabilityWindow(presentation, at: StreamDate(secondsSince1970: start.secondsSince1970 + 1)).available(in: segments) == nil,
                "no segment is complete in the first second")
        let early = AvailabilityWindow(presentation, at: StreamDate(secondsSince1970: start.secondsSince1970 + 1), availabilityTimeOffset: 1)
        #expect(early.available(in: segments) == 0...0, "availabilityTimeOffset makes a segment available before its end")
    }

    @Test("A template without @duration or timeline is left out, listed; a period's duplicate id is told apart")
    func leftOut() throws {
        let presentation = try Self.resolve(Self.mpd("static", #"mediaPresentationDuration="PT4S""#, """
            <Period id="x" duration="PT2S"><AdaptationSet mimeType="video/mp4"><SegmentTemplate media="$Number$.m4s"/>
              <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            <Period id="x"><AdaptationSet mimeType="video/mp4"><SegmentList duration="1">
              <SegmentURL media="a.m4s"/><SegmentURL media="b.m4s" mediaRange="0-99"/></SegmentList>
              <Representation id="v" bandwidth="1"/></AdaptationSet></Period>
            """))
        #expect(presentation.periods.map(\.id) == ["x", "x@1"])
        #expect(presentation.periods[0].adaptationSets[0].representations.isEmpty)
        #expect(presentation.problems.contains { $0.line == 3 && $0.message.contains("left out") }, "\(presentation.problems)")
        let list = try #require(presentation.periods[1].adaptationSets.first?.representations.first?.segments)
        #expect(list.count == 2 && list.segment(at: 1)?.path == "b.m4s" && list.segment(at: 1)?.byteRange?.count == 100)
    }
}
