import Foundation
import PlaytraceCore
import PlaytraceDASH
import PlaytraceDASHPlayback
import PlaytraceHLS
import Testing

@Suite("A DASH presentation as HLS playlists: the ladder, tracks across periods, numbers kept, breaks marked")
struct DASHPlaylistsTests {
    static let url = URL(string: "https://origin.example/show/manifest.mpd")!

    static func playlists(_ text: String, url: URL = url) throws -> DASHPlaylists {
        DASHPlaylists(ResolvedPresentation(try MPDParser().parse(Data(text.utf8)), url: url), base: url)
    }

    /// The media playlist of a track, which must exist.
    static func made(_ playlists: inout DASHPlaylists, _ track: DASHTrack, at now: StreamDate?) throws -> MediaPlaylist {
        let playlist = playlists.mediaPlaylist(track, at: now)
        return try #require(playlist)
    }

    static func presentation(_ text: String) throws -> ResolvedPresentation {
        ResolvedPresentation(try MPDParser().parse(Data(text.utf8)), url: url)
    }

    /// Content, an ad period (two rungs of its own, its own base URL, a SCTE-35 event at its start), content.
    static let onDemand = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT30S">
          <Period id="content-1" duration="PT10S">
            <AdaptationSet contentType="video" mimeType="video/mp4">
              <SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4"
                               duration="2" startNumber="1"/>
              <Representation id="v0" bandwidth="500000" width="640" height="360" codecs="avc1.4d401e"/>
              <Representation id="v1" bandwidth="1500000" width="1280" height="720" codecs="avc1.4d401f"/>
              <Representation id="v2" bandwidth="3000000" width="1920" height="1080" codecs="avc1.640028"/>
            </AdaptationSet>
            <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="en">
              <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
              <SegmentTemplate media="a/$Number$.m4s" duration="2"/>
              <Representation id="a" bandwidth="128000" codecs="mp4a.40.2"/>
            </AdaptationSet>
            <AdaptationSet contentType="audio" mimeType="audio/mp4" lang="fr">
              <SegmentTemplate media="fr/$Number$.m4s" duration="2"/>
              <Representation id="fr" bandwidth="96000" codecs="mp4a.40.2"/>
            </AdaptationSet>
          </Period>
          <Period id="ad-1" duration="PT6S">
            <BaseURL>https://ads.example/creative/</BaseURL>
            <EventStream schemeIdUri="urn:scte:scte35:2013:xml" timescale="1">
              <Event presentationTime="0" duration="6" id="1"/>
            </EventStream>
            <AdaptationSet contentType="video" mimeType="video/mp4">
              <SegmentTemplate media="$RepresentationID$_$Number%03d$.mp4" duration="3" startNumber="0"/>
              <Representation id="ad-low" bandwidth="400000"/>
              <Representation id="ad-high" bandwidth="2000000"/>
            </AdaptationSet>
          </Period>
          <Period id="content-2" duration="PT14S">
            <AdaptationSet contentType="video" mimeType="video/mp4">
              <SegmentTemplate media="$RepresentationID$/$Number$.m4s" initialization="$RepresentationID$/init.mp4"
                               duration="2" startNumber="6"/>
              <Representation id="v0" bandwidth="500000"/>
              <Representation id="v1" bandwidth="1500000"/>
              <Representation id="v2" bandwidth="3000000"/>
            </AdaptationSet>
          </Period>
        </MPD>
        """

    @Test("The first period's ladder is the variants, its audio and text sets the renditions")
    func multivariant() throws {
        let playlists = try Self.playlists(Self.onDemand)
        let multivariant = playlists.multivariantPlaylist()
        #expect(multivariant.variants.map(\.stream.bandwidth) == [628_000, 1_628_000, 3_128_000])
        #expect(multivariant.variants.map(\.stream.resolution?.height) == [360, 720, 1080])
        #expect(multivariant.variants[0].stream.codecs == ["avc1.4d401e", "mp4a.40.2"])
        #expect(multivariant.variants.map(\.uri) == (0...2).map { "https://origin.example/show/manifest.mpd#video=\($0)" })
        #expect(multivariant.renditions.map(\.language) == ["en", "fr"])
        #expect(multivariant.renditions.map(\.isDefault) == [true, false])
        for variant in multivariant.variants {
            #expect(playlists.track(of: URL(string: variant.uri)!) != nil)
        }
        let rendition = try #require(multivariant.renditions.last?.uri)
        #expect(playlists.track(of: URL(string: rendition)!) == .rendition(.audio, key: "audio:fr:"))
        #expect(playlists.track(of: URL(string: "https://other.example/manifest.mpd#video=0")!) == nil)
    }

    @Test("A rung plays across periods: numbers run on, each period a discontinuity with its map, timed by the lowest rung")
    func onDemandAcrossPeriods() throws {
        var playlists = try Self.playlists(Self.onDemand)
        let high = try Self.made(&playlists, .rung(2, location: 0), at: nil)
        #expect(high.isFinished)
        #expect(high.segments.count == 5 + 2 + 7)
        #expect(high.segments.map(\.mediaSequence) == Array(0..<14))
        #expect(high.segments[0].uri == "https://origin.example/show/v2/1.m4s")
        #expect(high.segments[0].tags.map?.uri == "https://origin.example/show/v2/init.mp4")
        // The ad period has two rungs: the highest at or below 3 Mb/s is ad-high.
        #expect(high.segments[5].uri == "https://ads.example/creative/ad-high_000.mp4")
        #expect(high.segments[5].tags.isDiscontinuity)
        #expect(high.segments[5].tags.map == nil)
        #expect(high.segments[5].duration == 3)
        #expect(high.segments[7].uri == "https://origin.example/show/v2/6.m4s")
        #expect(high.segments[7].tags.isDiscontinuity)
        #expect(high.segments[7].tags.map?.uri == "https://origin.example/show/v2/init.mp4")
        #expect(high.duration == MediaTime(seconds: 30))
        // The lowest rung in the ad period takes the lowest representation; numbers and times are the same.
        let low = try Self.made(&playlists, .rung(0, location: 0), at: nil)
        #expect(low.segments[5].uri == "https://ads.example/creative/ad-low_000.mp4")
        #expect(low.segments.map(\.startTime) == high.segments.map(\.startTime))
        // The SCTE-35 event at the ad period's start is a break of 6 s: out at its first segment, in after it.
        #expect(high.segments[5].tags.cueOut?.duration == MediaTime(seconds: 6))
        #expect(high.segments[7].tags.isCueIn)
        #expect(high.adBreaks.count == 1)
        #expect(high.adBreaks.first?.timeRange == MediaTimeRange(start: MediaTime(seconds: 10), end: MediaTime(seconds: 16)))
        // A track that is not the presentation's has no playlist.
        #expect(playlists.mediaPlaylist(.rung(3, location: 0), at: nil) == nil)
    }

    static func live(periods: String, publish: Int = 0) -> String {
        """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"
             minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT20S" suggestedPresentationDelay="PT6S"
             publishTime="2026-01-01T00:00:\(String(format: "%02d", publish))Z">
        \(periods)
        </MPD>
        """
    }

    static func livePeriod(_ id: String, start: Int, duration: Int? = nil) -> String {
        """
        <Period id="\(id)" start="PT\(start)S"\(duration.map { " duration=\"PT\($0)S\"" } ?? "")>
          <AdaptationSet contentType="video" mimeType="video/mp4">
            <SegmentTemplate media="\(id)/$Number$.m4s" duration="2" startNumber="1"/>
            <Representation id="v" bandwidth="1000000"/>
          </AdaptationSet>
        </Period>
        """
    }

    static func date(_ seconds: Double) -> StreamDate {
        StreamDate(secondsSince1970: 1_767_225_600 + seconds)  // 2026-01-01T00:00:00Z
    }

    @Test("A live window: the segments available at the server's time, dated, numbered stably as periods come and go")
    func liveWindow() throws {
        var playlists = try Self.playlists(Self.live(periods: Self.livePeriod("p1", start: 0)))
        let first = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(101))
        // At 101 s: segments ending in [81, 101]: those of [80, 82) to [98, 100).
        #expect(first.segments.first?.uri == "https://origin.example/show/p1/41.m4s")
        #expect(first.segments.last?.uri == "https://origin.example/show/p1/50.m4s")
        #expect(first.mediaSequence == 40)
        #expect(!first.isFinished)
        #expect(first.segments.first?.tags.programDateTime == Self.date(80))
        #expect(first.start?.timeOffset == MediaTime(seconds: -6))
        // A new period starts at 110 s; the first one now ends there.
        playlists.update(try Self.presentation(Self.live(periods: Self.livePeriod("p1", start: 0)
            + Self.livePeriod("p2", start: 110), publish: 10)))
        let second = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(115))
        #expect(second.segments.first?.mediaSequence == 47)
        #expect(second.segments.first?.uri == "https://origin.example/show/p1/48.m4s")
        let opening = try #require(second.segments.firstIndex { $0.uri.hasSuffix("p2/1.m4s") })
        #expect(second.segments[opening].mediaSequence == 55)
        #expect(second.segments[opening].tags.isDiscontinuity)
        #expect(second.segments[opening].tags.programDateTime == Self.date(110))
        // The first period leaves the MPD: the second keeps its numbers.
        playlists.update(try Self.presentation(Self.live(periods: Self.livePeriod("p2", start: 110), publish: 20)))
        let third = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(140))
        // At 140 s: segments ending in [120, 140], p2's fifth (ending at 120) first.
        #expect(third.segments.first?.uri == "https://origin.example/show/p2/5.m4s")
        #expect(third.segments.first?.mediaSequence == 59)
        // A year of one-second segments costs the window, not the year.
        let long = try Self.playlists(Self.live(periods: Self.livePeriod("p", start: 0)))
        var bounded = long
        bounded.maximumSegments = 5
        let window = try Self.made(&bounded, .rung(0, location: 0), at: Self.date(365 * 86_400))
        #expect(window.segments.count == 5)
        #expect(window.segments.last?.uri == "https://origin.example/show/p/15768000.m4s")
    }

    static func timelineWindow(firstNumber: Int, count: Int) -> String {
        """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"
             minimumUpdatePeriod="PT4S" timeShiftBufferDepth="PT40S">
          <Period id="live" start="PT0S">
            <AdaptationSet contentType="video" mimeType="video/mp4">
              <SegmentTemplate media="$Time$.m4s" timescale="10" startNumber="\(firstNumber)">
                <SegmentTimeline><S t="\(40 * (firstNumber - 1))" d="40" r="\(count - 1)"/></SegmentTimeline>
              </SegmentTemplate>
              <Representation id="v" bandwidth="1000000"/>
            </AdaptationSet>
          </Period>
        </MPD>
        """
    }

    @Test("A sliding timeline keeps its segments' numbers, whatever its startNumber says; refreshes missed are counted")
    func slidingTimeline() throws {
        // Segments 24 to 29: [92 s, 116 s).
        var playlists = try Self.playlists(Self.timelineWindow(firstNumber: 24, count: 6))
        let first = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(116))
        #expect(first.segments.map(\.uri).first == "https://origin.example/show/920.m4s")
        #expect(first.segments.count == 6)
        let newest = try #require(first.segments.last)
        // The window slid by one segment (and startNumber with it): the segments known keep their numbers.
        playlists.update(try Self.presentation(Self.timelineWindow(firstNumber: 25, count: 6)))
        let second = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(120))
        #expect(second.segments.first { $0.uri == newest.uri }?.mediaSequence == newest.mediaSequence)
        #expect(second.segments.last?.mediaSequence == newest.mediaSequence + 1)
        // Refreshes missed: the newest segment known (at 116 s) is still listed but out of the window (which starts
        // at 136 s); the three segments between are counted.
        playlists.update(try Self.presentation(Self.timelineWindow(firstNumber: 25, count: 20)))
        let third = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(176))
        #expect(third.segments.first?.uri == "https://origin.example/show/1320.m4s")
        #expect(third.segments.first?.mediaSequence == newest.mediaSequence + 1 + 1 + 3)
        // The same MPD made again numbers it the same.
        let again = try Self.made(&playlists, .rung(0, location: 0), at: Self.date(176))
        #expect(again.segments.map(\.mediaSequence) == third.segments.map(\.mediaSequence))
    }

    @Test("Base URL locations are redundant variants; a rendition keeps its own segments")
    func locationsAndRenditions() throws {
        var playlists = try Self.playlists("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
              <BaseURL>https://cdn-a.example/</BaseURL><BaseURL>https://cdn-b.example/</BaseURL>
              <Period id="p">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <SegmentTemplate media="v/$Number$.m4s" duration="2"/>
                  <Representation id="v" bandwidth="1000000"/>
                </AdaptationSet>
                <AdaptationSet contentType="text" mimeType="application/mp4" lang="de" codecs="stpp">
                  <SegmentTemplate media="t/$Number$.m4s" duration="4"/>
                  <Representation id="t" bandwidth="1000"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        let multivariant = playlists.multivariantPlaylist()
        #expect(multivariant.variants.count == 2)
        #expect(multivariant.variants[0].stream.bandwidth == multivariant.variants[1].stream.bandwidth)
        let second = try Self.made(&playlists, .rung(0, location: 1), at: nil)
        #expect(second.segments.first?.uri == "https://cdn-b.example/v/1.m4s")
        #expect(multivariant.renditions.map(\.type) == [.subtitles])
        let text = try #require(multivariant.renditions.first?.uri).flatMap(URL.init(string:))
        let track = try #require(text.flatMap(playlists.track(of:)))
        let subtitles = try Self.made(&playlists, track, at: nil)
        #expect(subtitles.segments.map(\.uri) == ["https://cdn-a.example/t/1.m4s"])
        #expect(subtitles.segments.first?.duration == 4)
    }

    /// An `emsg` box, version 0 (`delta`) or 1 (`absolute`), carrying `data`.
    static func emsg(version: UInt8, timescale: UInt32, time: UInt64, duration: UInt32?, data: [UInt8],
                     scheme: String = "urn:scte:scte35:2013:bin", value: String = "") -> [UInt8] {
        func uint32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        func uint64(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        let scheme = Array(scheme.utf8) + [0] + Array(value.utf8) + [0]
        var payload: [UInt8] = [version, 0, 0, 0]
        if version == 0 {
            payload += scheme + uint32(timescale) + uint32(UInt32(time)) + uint32(duration ?? .max) + uint32(7)
        } else {
            payload += uint32(timescale) + uint64(time) + uint32(duration ?? .max) + uint32(7) + scheme
        }
        payload += data
        return uint32(UInt32(8 + payload.count)) + Array("emsg".utf8) + payload
    }

    @Test("SCTE-35 in emsg: version 0 from the segment's start, version 1 on the period's timeline less its offset")
    func inbandEvents() throws {
        var playlists = try Self.playlists("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT40S">
              <Period id="a" duration="PT20S">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <InbandEventStream schemeIdUri="urn:scte:scte35:2013:bin"/>
                  <SegmentTemplate media="a/$Number$.m4s" duration="4" startNumber="1"/>
                  <Representation id="v" bandwidth="1000000"/>
                </AdaptationSet>
              </Period>
              <Period id="b" start="PT20S">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <SegmentTemplate media="b/$Number$.m4s" timescale="10" duration="40" presentationTimeOffset="1000"/>
                  <Representation id="v" bandwidth="1000000"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(playlists.readsInbandEvents)
        let out = SpliceInfoSectionEncoder.spliceInsert(eventID: 1, isOutOfNetwork: true, ptsTime: nil, breakDuration: 8 * 90_000)
        let back = SpliceInfoSectionEncoder.spliceInsert(eventID: 2, isOutOfNetwork: false, ptsTime: nil, breakDuration: nil)
        // Version 0, at the start of the segment starting at 4 s; its duration the splice's (8 s). (Breaks are
        // marked on segments, cue-out and cue-in, as SSAI streams align them.)
        let first = Self.emsg(version: 0, timescale: 1_000, time: 0, duration: nil, data: out)
        func note(_ box: [UInt8], at start: Duration) -> Bool {
            playlists.noteInbandEvents(EventMessage.messages(inSegment: box).messages, segmentStart: start)
        }
        #expect(note(first, at: .seconds(4)))
        // The same again is no new break; a splice back into the network is none.
        #expect(!note(first, at: .seconds(4)))
        let inNetwork = Self.emsg(version: 0, timescale: 1_000, time: 0, duration: 1_000, data: back)
        #expect(!note(inNetwork, at: .seconds(8)))
        // Version 1 in period b (offset 100 s): media time 108 s is 8 s into the period, 28 s on the MPD's timeline.
        let second = Self.emsg(version: 1, timescale: 90_000, time: 108 * 90_000, duration: 4 * 90_000, data: out)
        #expect(note(second, at: .seconds(24)))
        let media = try Self.made(&playlists, .rung(0, location: 0), at: nil)
        #expect(media.adBreaks.compactMap(\.timeRange) == [
            MediaTimeRange(start: MediaTime(seconds: 4), end: MediaTime(seconds: 12)),
            MediaTimeRange(start: MediaTime(seconds: 28), end: MediaTime(seconds: 32)),
        ])
    }
}

extension DASHPlaylistsTests {
    @Test("SVTA2053 in emsg: declared, read, placed as SCTE-35 is; its JSON as carried; no break of its own in the playlists")
    func inbandSignaling() throws {
        var playlists = try Self.playlists("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT20S">
              <Period id="a">
                <AdaptationSet contentType="video" mimeType="video/mp4">
                  <InbandEventStream schemeIdUri="urn:sva:advertising-wg:ad-id-signaling"/>
                  <SegmentTemplate media="a/$Number$.m4s" duration="4" startNumber="1"/>
                  <Representation id="v" bandwidth="1000000"/>
                </AdaptationSet>
              </Period>
            </MPD>
            """)
        #expect(playlists.readsInbandEvents, "a declared signaling scheme is read, as SCTE-35 is")
        let json = #"{"version":2,"type":"slot","payload":[]}"#
        let boxes = Self.emsg(version: 0, timescale: 1_000, time: 1_500, duration: 8_000, data: Array(json.utf8),
                              scheme: "urn:sva:advertising-wg:ad-id-signaling", value: "v1")
            + Self.emsg(version: 0, timescale: 1_000, time: 0, duration: nil, data: [0xFF, 0xFE],
                        scheme: "urn:svta:advertising-wg:ad-creative-signaling")
            + Self.emsg(version: 0, timescale: 1, time: 0, duration: 4, data: Array(json.utf8), scheme: "urn:example:other")
            + Self.emsg(version: 0, timescale: 1, time: 0, duration: nil, data: Array(json.utf8),
                        scheme: "urn:svta:advertising-wg:ad-id-signaling")
        let messages = EventMessage.messages(inSegment: boxes).messages
        #expect(messages.count == 4)
        // Only the first: the second is not UTF-8, the third not a signaling scheme, the fourth without a duration.
        #expect(playlists.inbandSignaling(messages, segmentStart: .seconds(8)) == [
            DASHPlaylists.InbandSignaling(id: "emsg-v1-7", start: .seconds(9.5), duration: .seconds(8), json: json),
        ])
        let noted = playlists.noteInbandEvents(messages, segmentStart: .seconds(8))
        #expect(!noted, "not a SCTE-35 break")
        let media = try Self.made(&playlists, .rung(0, location: 0), at: nil)
        #expect(media.adBreaks.isEmpty)
    }
}

@Suite("SegmentBase in the playlists: the index read before the first playlist, or the file played whole")
struct DASHPlaylistsSegmentBaseTests {
    static let text = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT4S">
          <Period id="0">
            <AdaptationSet mimeType="video/mp4"><Representation id="v" bandwidth="500000">
              <BaseURL>video.mp4</BaseURL>
              <SegmentBase indexRange="100-199"><Initialization range="0-99"/></SegmentBase>
            </Representation></AdaptationSet>
          </Period>
        </MPD>
        """

    @Test("An index that is no sidx: a problem, never asked again, the file one segment with its init")
    func unreadableIndex() throws {
        var playlists = try DASHPlaylistsTests.playlists(Self.text)
        let requests = playlists.indexRequests(for: .rung(0, location: 0))
        #expect(requests.map(\.range) == [ByteRange(first: 100, last: 199)])
        #expect(requests.first?.urls.map(\.absoluteString) == ["https://origin.example/show/video.mp4"])
        let request = try #require(requests.first)
        let applied = playlists.applyIndex(Array(repeating: 0x47, count: 100), for: request)
        #expect(!applied)
        #expect(playlists.problems.contains { $0.message.contains("plays as one segment") })
        #expect(playlists.indexRequests(for: .rung(0, location: 0)).isEmpty, "not asked again")
        let playlist = try DASHPlaylistsTests.made(&playlists, .rung(0, location: 0), at: nil)
        #expect(playlist.segments.count == 1 && playlist.segments[0].duration == 4)
        #expect(playlist.segments[0].tags.map?.byteRange == PlaytraceHLS.ByteRange(length: 100, offset: 0))
    }

    @Test("The producer's clock: the live MPD's ProducerReferenceTime, then each segment's prft, against the stream's dates")
    func producerClock() throws {
        let mpd = """
            <MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" minimumUpdatePeriod="PT4S">
              <Period id="p" start="PT10S"><AdaptationSet mimeType="video/mp4">
                <ProducerReferenceTime id="0" inband="true" presentationTime="270000" wallClockTime="2026-01-01T00:00:12.250Z"/>
                <SegmentTemplate timescale="90000" presentationTimeOffset="90000" duration="360000" media="$Number$.m4s" initialization="init.mp4"/>
                <Representation id="v" bandwidth="1000"/></AdaptationSet></Period>
            </MPD>
            """
        let session = DASHSession(playlists: try DASHPlaylistsTests.playlists(mpd), manifestURL: DASHPlaylistsTests.url, fetchedAt: .zero)
        // (270,000 − 90,000) / 90,000 = 2 s into the period that starts at 10 s: 00:00:12, made at 00:00:12.250.
        #expect(session.producerClockOffset == .milliseconds(250))

        func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(UInt32(8 + payload.count)) + Array(type.utf8) + payload }
        // Made at 00:00:20.5 (NTP), for the sample at 1,800,000 ticks, the segment's first, which the stream dates 00:00:20.
        let ntp = (UInt64(1_767_225_620) + 2_208_988_800) << 32 | 0x8000_0000
        let segment = box("prft", [1, 0, 0, 0] + be32(1) + be64(ntp) + be64(1_800_000))
            + box("moof", box("traf", box("tfdt", [1, 0, 0, 0] + be64(1_800_000)))) + box("mdat", [])
        let date = try StreamDate(iso8601: "2026-01-01T00:00:20Z")
        #expect(session.noteProducerTime(inSegment: segment, segmentDate: date))
        #expect(session.producerClockOffset == .milliseconds(500), "the segments' own clock, newer than the MPD's")
        #expect(!session.noteProducerTime(inSegment: segment, segmentDate: date), "the same offset again is no change")
        #expect(!session.noteProducerTime(inSegment: box("mdat", [1]), segmentDate: date), "a segment without prft changes nothing")
        #expect(session.producerClockOffset == .milliseconds(500))
    }

}
