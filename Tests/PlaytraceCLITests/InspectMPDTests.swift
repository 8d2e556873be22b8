import Foundation
import PlaytraceTestSupport
import Testing

/// `inspect` on MPEG-DASH MPDs: detected by content, explained as text and as JSON that follows the schema.
@Suite("inspect of MPDs")
struct InspectMPDTests {
    static func write(_ text: String, _ name: String) throws -> String {
        let path = CLITests.temporaryPath(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Two content periods around an ad period, as MediaTailor writes them; a SCTE-35 splice insert in an
    /// EventStream; addressing by template number, template timeline and segment list.
    static let onDemand = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="http://www.scte.org/schemas/35/2016"
             type="static" mediaPresentationDuration="PT1M" minBufferTime="PT2S">
          <BaseURL>https://cdn.example/vod/</BaseURL>
          <Period id="content-1" duration="PT30S">
            <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="90000">
              <Event presentationTime="2700000" duration="900000" id="7">
                <scte35:Signal><scte35:Binary>/DAlAAAAAAAA///wFAUAAAABf+/+AAr8gP4ACvyAAAAAAAAAOoQHlA==</scte35:Binary></scte35:Signal>
              </Event>
            </EventStream>
            <AdaptationSet mimeType="video/mp4" codecs="avc1.64001f">
              <SegmentTemplate media="$RepresentationID$/$Number%04d$.m4s" initialization="$RepresentationID$/init.mp4" timescale="1000" duration="4000"/>
              <Representation id="hd" bandwidth="3000000" width="1280" height="720"/>
            </AdaptationSet>
          </Period>
          <Period id="content-1_1" duration="PT10S">
            <BaseURL>https://ads.example/creative/</BaseURL>
            <AdaptationSet mimeType="video/mp4" codecs="avc1.64001f">
              <SegmentTemplate media="ad_$Time$.m4s" timescale="90000"><SegmentTimeline><S t="0" d="180000" r="4"/></SegmentTimeline></SegmentTemplate>
              <Representation id="hd" bandwidth="3000000"/>
            </AdaptationSet>
          </Period>
          <Period id="content-2">
            <AdaptationSet mimeType="audio/mp4" lang="en">
              <SegmentList duration="10"><Initialization sourceURL="audio/init.mp4"/>
                <SegmentURL media="audio/a.m4a"/><SegmentURL media="audio/b.m4a"/>
              </SegmentList>
              <Representation id="audio" bandwidth="128000"/>
            </AdaptationSet>
          </Period>
        </MPD>
        """

    @Test("An on-demand multi-period MPD: periods placed, segments named at their base URLs, SCTE-35 decoded")
    func onDemandMPD() async throws {
        let path = try Self.write(Self.onDemand, "vod.mpd")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = try await CLITests.run(["inspect", path])
        #expect(text.status == 0, "\(text.error)")
        for line in ["MPD, on demand (static)", "period content-1: from 0.000 s to 30.000 s",
                     "period content-1_1: from 30.000 s to 40.000 s", "period content-2: from 40.000 s to 60.000 s",
                     "first #1 at 0.000 s for 4.000 s: https://cdn.example/vod/hd/0001.m4s",
                     "last  #8 at 28.000 s for 2.000 s: https://cdn.example/vod/hd/0008.m4s",
                     "last  #5 at 38.000 s for 2.000 s: https://ads.example/creative/ad_720000.m4s",
                     "init  https://cdn.example/vod/audio/init.mp4",
                     "at 30.000 s for 10.000 s id 7: splice_insert"] {
            #expect(text.output.contains(line), "\(line)\n\(text.output)")
        }
        let (run, document) = try await CLITests.inspectJSON([path])
        #expect(run.status == 0)
        #expect(document["kind"] as? String == "mpd" && document["type"] as? String == "static")
        let periods = try #require(document["periods"] as? [[String: Any]])
        #expect(periods.map { $0["id"] as? String } == ["content-1", "content-1_1", "content-2"])
        let event = try #require(((periods[0]["eventStreams"] as? [[String: Any]])?.first?["events"] as? [[String: Any]])?.first)
        #expect((event["scte35"] as? [String: Any])?["command"] as? String == "splice_insert")
        let audio = try #require(((periods[2]["adaptationSets"] as? [[String: Any]])?.first?["representations"] as? [[String: Any]])?.first)
        #expect(audio["addressing"] as? String == "list-duration" && audio["segmentCount"] as? Int == 2)
    }

    @Test("A live MPD: the segments available at this machine's clock, found without listing a week of DVR")
    func liveMPD() async throws {
        let path = try Self.write("""
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z"
                 minimumUpdatePeriod="PT2S" timeShiftBufferDepth="P7D">
              <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://time.example/now"/>
              <Period id="live" start="PT0S"><AdaptationSet mimeType="video/mp4">
                <ProducerReferenceTime id="7" inband="true" presentationTime="100" wallClockTime="2026-01-01T00:01:40.500Z"/>
                <SegmentTemplate media="$Number$.m4s" timescale="1" duration="1"/>
                <Representation id="v" bandwidth="1000000"/></AdaptationSet></Period>
            </MPD>
            """, "live.mpd")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (run, document) = try await CLITests.inspectJSON([path])
        #expect(run.status == 0, "\(run.error)")
        let representation = try #require(((((document["periods"] as? [[String: Any]])?.first?["adaptationSets"]
            as? [[String: Any]])?.first)?["representations"] as? [[String: Any]])?.first)
        let available = try #require(representation["available"] as? [String: Any])
        let count = try #require(available["count"] as? Int)
        #expect((604_799...604_801).contains(count), "a week of one-second segments: \(count)")
        let edge = try #require(available["liveEdgeSeconds"] as? Double), newest = try #require(available["newestEndSeconds"] as? Double)
        #expect(newest <= edge && edge - newest < 1, "the newest segment ends within a second before the live edge")
        #expect(representation["segmentCount"] == nil, "a live period has no count")
        let reference = try #require((representation["producerReferenceTimes"] as? [[String: Any]])?.first)
        #expect(reference["id"] as? Int == 7 && reference["type"] as? String == "encoder" && reference["inband"] as? Bool == true)
        #expect(reference["presentationSeconds"] as? Double == 100 && reference["wallClock"] as? String == "2026-01-01T00:01:40.500Z")
        #expect(reference["timelineOffsetSeconds"] as? Double == 0.5, "made half a second after its place on the live timeline")
        let text = try await CLITests.run(["inspect", path])
        #expect(text.output.contains("UTCTiming http-xsdate: https://time.example/now"), "\(text.output)")
        #expect(text.output.contains("available; the newest ends"), "\(text.output)")
        #expect(text.output.contains("producer time 7 (encoder, also in segments): 100.000 s made at 2026-01-01T00:01:40.500Z, "
                                     + "0.500 s after its place on the live timeline"), "\(text.output)")
    }

    @Test("Nothing playable exits 1 naming why; --strict exits 1 on any problem; hostile XML is refused in one line")
    func failures() async throws {
        let unplayable = try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT10S"><Period><AdaptationSet>
              <SegmentTemplate media="$Number$.m4s"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """, "unplayable.mpd")
        let problem = try Self.write("""
            <MPD type="static" mediaPresentationDuration="PT10S"><Period id="p"><AdaptationSet mimeType="video/mp4">
              <SegmentTemplate media="$Number$.m4s" duration="2" timescale="-3"/><Representation id="v" bandwidth="1"/></AdaptationSet></Period></MPD>
            """, "problem.mpd")
        let hostile = try Self.write("""
            <?xml version="1.0"?><!DOCTYPE MPD [<!ENTITY a "aaaaaaaa">]><MPD type="static">&a;</MPD>
            """, "hostile.mpd")
        let broken = try Self.write("<MPD type=\"static\"><Period></MPD>", "broken.mpd")
        defer { for path in [unplayable, problem, hostile, broken] { try? FileManager.default.removeItem(atPath: path) } }

        let none = try await CLITests.run(["inspect", unplayable])
        #expect(none.status == 1 && none.error.contains("no representation's segments can be named"), "\(none.error)")
        #expect(none.output.contains("without @duration or SegmentTimeline"), "\(none.output)")
        let lenient = try await CLITests.run(["inspect", problem])
        #expect(lenient.status == 0 && lenient.output.contains("@timescale=\"-3\" is not 1 or more"), "\(lenient.output)")
        let strict = try await CLITests.run(["inspect", "--strict", problem])
        #expect(strict.status == 1)
        for path in [hostile, broken] {
            let run = try await CLITests.run(["inspect", path])
            #expect(run.status == 1 && run.error.split(separator: "\n").count == 1, "\(run.error)")
            #expect(run.error.contains(path) && !run.error.contains("VAST"), "named as an MPD's failure: \(run.error)")
        }
    }
}
