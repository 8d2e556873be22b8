import Foundation
import PlaytraceCore
import PlaytraceDASH
import Testing

@Suite("MPD parser: every element as written, problems with their lines, untrusted input bounded")
struct MPDParserTests {
    static let live = """
        <?xml version="1.0" encoding="UTF-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:scte35="http://www.scte.org/schemas/35/2016"
             type="dynamic" profiles="urn:mpeg:dash:profile:isoff-live:2011, urn:dvb:dash:profile:dvb-dash:2014"
             availabilityStartTime="2026-01-01T00:00:00Z" publishTime="2026-01-01T01:00:00.5Z"
             minimumUpdatePeriod="PT2S" timeShiftBufferDepth="PT1M" suggestedPresentationDelay="PT6S"
             minBufferTime="PT2S" maxSegmentDuration="PT2S">
          <Location>https://cdn.example/live/session-1.mpd</Location>
          <BaseURL serviceLocation="a">https://a.example/live/</BaseURL>
          <BaseURL serviceLocation="b">https://b.example/live/</BaseURL>
          <Period id="p0" start="PT0S">
            <EventStream schemeIdUri="urn:scte:scte35:2014:xml+bin" timescale="90000">
              <Event presentationTime="5400000" duration="2700000" id="1">
                <scte35:Signal><scte35:Binary>/DAgAAAAAAAAAP/wDwUAAAABf+/+AAAAAAAAAAAAAACH6/zP</scte35:Binary></scte35:Signal>
              </Event>
            </EventStream>
            <EventStream schemeIdUri="urn:sva:advertising-wg:ad-id-signaling" timescale="1">
              <Event presentationTime="60" duration="30"><![CDATA[{"version":1,"identifiers":[]}]]></Event>
            </EventStream>
            <AdaptationSet id="1" contentType="video" mimeType="video/mp4" segmentAlignment="true" frameRate="30000/1001">
              <Role schemeIdUri="urn:mpeg:dash:role:2011" value="main"/>
              <ContentProtection schemeIdUri="urn:mpeg:dash:mp4protection:2011" value="cenc"/>
              <SegmentTemplate timescale="90000" media="$RepresentationID$/$Time$.m4s" initialization="$RepresentationID$/init.mp4"
                               presentationTimeOffset="900000">
                <SegmentTimeline>
                  <S t="900000" d="180000" r="-1"/>
                </SegmentTimeline>
              </SegmentTemplate>
              <Representation id="720p" bandwidth="3000000" width="1280" height="720" codecs="avc1.64001f"/>
              <Representation id="360p" bandwidth="800000" width="640" height="360" codecs="avc1.4d401e">
                <BaseURL>low/</BaseURL>
              </Representation>
            </AdaptationSet>
            <AdaptationSet id="2" contentType="audio" lang="fr" mimeType="audio/mp4">
              <AudioChannelConfiguration schemeIdUri="urn:mpeg:mpegB:cicp:ChannelConfiguration" value="2"/>
              <InbandEventStream schemeIdUri="urn:scte:scte35:2013:bin"/>
              <Label>Français</Label>
              <SegmentTemplate timescale="48000" duration="96000" startNumber="10" media="a/$Number%05d$.m4s"/>
              <Representation id="aac" bandwidth="128000" audioSamplingRate="48000"/>
            </AdaptationSet>
          </Period>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://time.example/?iso"/>
          <UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T01:00:00Z"/>
        </MPD>
        """

    @Test("A live MPD: its attributes, base URLs, periods, sets, representations, templates and events")
    func live() throws {
        let mpd = try MPDParser().parse(Data(Self.live.utf8))
        #expect(mpd.problems.isEmpty, "\(mpd.problems)")
        #expect(mpd.type == .dynamic)
        #expect(mpd.profiles == ["urn:mpeg:dash:profile:isoff-live:2011", "urn:dvb:dash:profile:dvb-dash:2014"])
        #expect(mpd.availabilityStartTime == StreamDate(secondsSince1970: 1_767_225_600))
        #expect(mpd.publishTime == StreamDate(secondsSince1970: 1_767_229_200.5))
        #expect(mpd.minimumUpdatePeriod == .seconds(2) && mpd.timeShiftBufferDepth == .seconds(60))
        #expect(mpd.suggestedPresentationDelay == .seconds(6) && mpd.maxSegmentDuration == .seconds(2))
        #expect(mpd.locations == ["https://cdn.example/live/session-1.mpd"])
        #expect(mpd.baseURLs.map(\.url) == ["https://a.example/live/", "https://b.example/live/"])
        #expect(mpd.baseURLs.map(\.serviceLocation) == ["a", "b"])
        #expect(mpd.utcTimings.map(\.scheme) == [.httpXSDate, .direct])

        let period = try #require(mpd.periods.first)
        #expect(mpd.periods.count == 1 && period.id == "p0" && period.start == .zero && period.line == 10)
        #expect(period.eventStreams.count == 2)
        let scte = period.eventStreams[0]
        #expect(scte.isSCTE35 && scte.timescale == 90_000 && scte.events.count == 1)
        #expect(scte.events[0].presentationTime == 5_400_000 && scte.events[0].duration == 2_700_000 && scte.events[0].id == "1")
        guard case .binary(let section) = scte.events[0].content else { Issue.record("no binary section"); return }
        #expect(section.first == 0xFC && section.count == 36)
        #expect(period.eventStreams[1].events.first?.content == .text(#"{"version":1,"identifiers":[]}"#))

        let video = period.adaptationSets[0]
        #expect(video.id == "1" && video.contentType == "video" && video.segmentAlignment == true)
        #expect(video.common.frameRate?.description == "30000/1001")
        #expect(video.roles == [Descriptor(schemeIdURI: "urn:mpeg:dash:role:2011", value: "main")])
        #expect(video.common.contentProtection.map(\.value) == ["cenc"])
        let template = try #require(video.segmentInformation.template)
        #expect(template.timescale == 90_000 && template.presentationTimeOffset == 900_000)
        #expect(template.timeline == [SegmentTimeline.Entry(time: 900_000, duration: 180_000, repeatCount: -1, line: 25)])
        #expect(video.representations.map(\.id) == ["720p", "360p"])
        #expect(video.representations.map(\.bandwidth) == [3_000_000, 800_000])
        #expect(video.representations[1].baseURLs.map(\.url) == ["low/"])
        #expect(video.representations[0].common.width == 1280 && video.representations[0].common.codecs == "avc1.64001f")

        let audio = period.adaptationSets[1]
        #expect(audio.lang == "fr" && audio.labels == ["Français"])
        #expect(audio.common.audioChannelConfiguration.map(\.value) == ["2"])
        #expect(audio.common.inbandEventStreams.map(\.schemeIdURI) == ["urn:scte:scte35:2013:bin"])
        #expect(audio.segmentInformation.template?.duration == 96_000 && audio.segmentInformation.template?.startNumber == 10)
    }

    @Test("Lenient: what cannot be read is listed with its line and left out; the rest is read")
    func lenient() throws {
        let text = """
            <MPD type="live" mediaPresentationDuration="PT1X" minBufferTime="PT2S">
              <Period duration="PT30S">
                <AdaptationSet frameRate="fast">
                  <SegmentList duration="0" timescale="1">
                    <SegmentURL media="s1.m4s" mediaRange="9-1"/>
                  </SegmentList>
                  <Representation bandwidth="-5">
                    <SegmentBase indexRange="100-199" timescale="1000"><Initialization range="0-99"/></SegmentBase>
                  </Representation>
                </AdaptationSet>
                <EventStream><Event/></EventStream>
              </Period>
            </MPD>
            """
        let mpd = try MPDParser().parse(Data(text.utf8))
        let lines = mpd.problems.map(\.line)
        #expect(mpd.type == .static && mpd.mediaPresentationDuration == nil && mpd.minBufferTime == .seconds(2))
        #expect(lines.contains(1) && lines.contains(3) && lines.contains(4) && lines.contains(5) && lines.contains(7))
        #expect(lines.contains(11), "an EventStream without @schemeIdUri")
        let set = try #require(mpd.periods.first?.adaptationSets.first)
        #expect(set.common.frameRate == nil)
        #expect(set.segmentInformation.list?.segmentURLs == [URLRange(url: "s1.m4s")])
        let representation = try #require(set.representations.first)
        #expect(representation.bandwidth == nil && representation.id == nil)
        #expect(representation.segmentInformation.base?.indexRange == ByteRange(first: 100, last: 199))
        #expect(representation.segmentInformation.base?.initialization == URLRange(range: ByteRange(first: 0, last: 99)))
        #expect(mpd.periods.first?.eventStreams.isEmpty == true)
    }

    @Test("Producer reference times of a set and a representation: inherited, read on their clock, incomplete ones listed")
    func producerReferenceTimes() throws {
        let text = """
            <MPD type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z">
              <Period id="p" start="PT0S">
                <AdaptationSet mimeType="video/mp4">
                  <ProducerReferenceTime id="0" type="encoder" inband="true" presentationTime="900000" wallClockTime="2026-01-01T00:00:10.250Z">
                    <UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2014" value="https://time.example/"/>
                  </ProducerReferenceTime>
                  <ProducerReferenceTime id="1" wallClockTime="2026-01-01T00:00:10Z"/>
                  <ProducerReferenceTime id="x" presentationTime="0" wallClockTime="2026-01-01T00:00:10Z"/>
                  <SegmentTemplate timescale="90000" duration="180000" media="$Number$.m4s"/>
                  <Representation id="hd" bandwidth="3000000">
                    <ProducerReferenceTime id="2" type="captured" presentationTime="1" wallClockTime="3976300800.5">
                      <UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="ntp.example"/>
                    </ProducerReferenceTime>
                    <ProducerReferenceTime id="3" type="later" presentationTime="2" wallClockTime="soon"/>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>
            """
        let mpd = try MPDParser().parse(Data(text.utf8))
        let set = try #require(mpd.periods.first?.adaptationSets.first)
        let encoder = try #require(set.common.producerReferenceTimes.first)
        #expect(set.common.producerReferenceTimes.map(\.id) == [0], "one without @presentationTime, one with an id that is no number: left out")
        #expect(encoder.kind == .encoder && encoder.inband && encoder.presentationTime == 900_000 && encoder.line == 4)
        #expect(encoder.wallClock == (try StreamDate(iso8601: "2026-01-01T00:00:10.250Z")))
        #expect(encoder.utcTiming == UTCTiming(scheme: .httpISO, value: "https://time.example/", line: 5))
        let own = try #require(set.representations.first).common.producerReferenceTimes
        #expect(own.map(\.id) == [2, 3])
        #expect(own[0].kind == .captured && !own[0].inband && own[0].wallClock == nil && own[0].wallClockTime == "3976300800.5",
                "an NTP clock's time is kept as written, not read as a date")
        #expect(own[1].kind == .encoder && own[1].wallClock == nil, "an unknown type is read as encoder; a time that is no date is nil")
        let lines = mpd.problems.map(\.line)
        #expect(lines.contains(7) && lines.contains(8), "the incomplete ones")
        #expect(lines.filter { $0 == 14 }.count == 2, "the unknown type and the date that is none, both on their element's line")
        #expect(!lines.contains(4) && !lines.contains(11), "a complete reference, and an NTP time, are no problem")

        let resolved = ResolvedPresentation(mpd, url: try #require(URL(string: "https://cdn.example/live.mpd")))
        let representation = try #require(resolved.periods.first?.adaptationSets.first?.representations.first)
        #expect(representation.attributes.producerReferenceTimes.map(\.id) == [0, 2, 3], "the set's first, then its own")
    }

    @Test("Refused: not XML, not an MPD, a DTD, not UTF-8, too large, too deep",
          arguments: ["not xml at all <", "<VAST version=\"4.0\"/>",
                      "<!DOCTYPE MPD [<!ENTITY a \"aaaa\">]><MPD>&a;</MPD>",
                      // Cut short (a truncated download), or going on after its root: not read as a shorter MPD.
                      "<MPD type=\"static\"><Period id=\"a\">", "<MPD type=\"static\"/><MPD/>"])
    func refused(_ text: String) {
        #expect(throws: MPDParseError.self) { try MPDParser().parse(Data(text.utf8)) }
    }

    @Test("Integers: spaces around them and a sign are read, 64 bits overflowing or other text is a problem")
    func integers() throws {
        let mpd = try MPDParser().parse(Data("""
            <MPD type="static"><Period id="p"><AdaptationSet><SegmentTemplate media="$Time$.m4s">
              <SegmentTimeline><S t=" 7 " d="+2" r="-1"/><S t="9223372036854775807" d="9223372036854775808"/><S d="1x"/>
              <S t="-9223372036854775808" d="3"/></SegmentTimeline></SegmentTemplate></AdaptationSet></Period></MPD>
            """.utf8))
        let entries = try #require(mpd.periods.first?.adaptationSets.first?.segmentInformation.template?.timeline)
        #expect(entries.map(\.time) == [7, 9_223_372_036_854_775_807, nil, nil])
        #expect(entries.map(\.duration) == [2, nil, nil, 3])
        #expect(entries.first?.repeatCount == -1)
        #expect(mpd.problems.contains { $0.line == 2 && $0.message.contains("@d=\"9223372036854775808\" is not an integer within 64 bits") })
        #expect(mpd.problems.contains { $0.message.contains("@d=\"1x\"") })
        #expect(mpd.problems.contains { $0.line == 3 && $0.message.contains("@t=\"-9223372036854775808\" is not 0 or more") })
    }

    @Test("A processing instruction without data, which crashes Foundation's XMLParser on Linux, is passed over")
    func emptyProcessingInstruction() throws {
        let mpd = try MPDParser().parse(Data("""
            <?xml version="1.0"?><?p?>
            <MPD type="static" mediaPresentationDuration="PT4S"><?xml-stylesheet?><Period id="a"/><?q?></MPD>
            """.utf8))
        #expect(mpd.periods.map(\.id) == ["a"] && mpd.periods.first?.line == 2)
        // An undeclared namespace prefix is libxml2's error too, but the document reads whole.
        let prefixed = try MPDParser().parse(Data(#"<MPD type="static"><Period id="b"><scte35:Signal/></Period></MPD>"#.utf8))
        #expect(prefixed.periods.map(\.id) == ["b"])
    }

    @Test("Bounds: size, depth, and kinds past their limits left out once listed")
    func bounds() throws {
        #expect(throws: MPDParseError.self) { try MPDParser().parse(Data([0x3C, 0x4D, 0xFF, 0xFE])) }
        var small = MPDParser.Limits()
        small.maximumBytes = 100
        #expect(throws: MPDParseError.self) {
            try MPDParser(limits: small).parse(Data(("<MPD>" + String(repeating: " ", count: 200) + "</MPD>").utf8))
        }
        let deep = "<MPD>" + String(repeating: "<x>", count: 40) + String(repeating: "</x>", count: 40) + "</MPD>"
        #expect(throws: MPDParseError.self) { try MPDParser().parse(Data(deep.utf8)) }

        var few = MPDParser.Limits()
        few.maximumPeriods = 2
        few.maximumTimelineEntries = 3
        let periods = (0..<5).map { index in
            "<Period id=\"\(index)\"><AdaptationSet><SegmentTemplate><SegmentTimeline><S d=\"1\"/><S d=\"1\"/></SegmentTimeline></SegmentTemplate></AdaptationSet></Period>"
        }.joined()
        let mpd = try MPDParser(limits: few).parse(Data("<MPD>\(periods)</MPD>".utf8))
        #expect(mpd.periods.map(\.id) == ["0", "1"])
        #expect(mpd.periods.compactMap { $0.adaptationSets.first?.segmentInformation.template?.timeline?.count } == [2, 1])
        #expect(mpd.problems.filter { $0.message.contains("left out") }.count == 2)
    }

    @Test("A year of one-second $Number$ segments costs one element, not a list")
    func lazyTemplate() throws {
        let text = """
            <MPD type="static" mediaPresentationDuration="P365D"><Period>
              <AdaptationSet><SegmentTemplate media="$Number$.m4s" duration="1" timescale="1"/>
              <Representation id="a" bandwidth="1"/></AdaptationSet></Period></MPD>
            """
        let mpd = try MPDParser().parse(Data(text.utf8))
        #expect(mpd.mediaPresentationDuration == .seconds(365 * 86_400))
        #expect(mpd.periods.first?.adaptationSets.first?.segmentInformation.template?.duration == 1)
    }
}
