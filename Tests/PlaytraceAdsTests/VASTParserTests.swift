import Foundation
import PlaytraceAds
import PlaytraceTestSupport
import Testing

@Suite("VAST: parsing")
struct VASTParserTests {
    static let inline = """
    <?xml version="1.0" encoding="UTF-8"?>
    <VAST version="4.3">
      <Error><![CDATA[https://ads.example/root-error?c=[ERRORCODE]]]></Error>
      <Ad id="a1" sequence="2" adType="video">
        <InLine>
          <AdSystem version="2">Example</AdSystem>
          <AdServingId>srv-1</AdServingId>
          <AdTitle> Spring sale </AdTitle>
          <Impression id="i1"><![CDATA[https://ads.example/imp]]></Impression>
          <Impression>about:blank</Impression>
          <Error><![CDATA[https://ads.example/err?c=[ERRORCODE]]]></Error>
          <Category authority="iab">IAB1-1</Category>
          <ViewableImpression><Viewable><![CDATA[https://ads.example/viewable]]></Viewable></ViewableImpression>
          <AdVerifications>
            <Verification vendor="example.com-omid">
              <JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://v.example/omid.js]]></JavaScriptResource>
              <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[https://v.example/vne?r=[REASON]]]></Tracking></TrackingEvents>
              <VerificationParameters><![CDATA[{"k":1}]]></VerificationParameters>
            </Verification>
          </AdVerifications>
          <Creatives>
            <Creative id="c1" adId="ad-1" sequence="1">
              <UniversalAdId idRegistry="ad-id.org">CNPA0484000H</UniversalAdId>
              <Linear skipoffset="25%">
                <Duration>00:00:15.500</Duration>
                <TrackingEvents>
                  <Tracking event="start"><![CDATA[https://ads.example/start]]></Tracking>
                  <Tracking event="progress" offset="00:00:05"><![CDATA[https://ads.example/p5]]></Tracking>
                  <Tracking event="progress" offset="10%"><![CDATA[https://ads.example/p10]]></Tracking>
                </TrackingEvents>
                <VideoClicks>
                  <ClickThrough><![CDATA[https://shop.example]]></ClickThrough>
                  <ClickTracking><![CDATA[https://ads.example/click]]></ClickTracking>
                </VideoClicks>
                <MediaFiles>
                  <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="800"><![CDATA[https://cdn.example/a.mp4]]></MediaFile>
                  <MediaFile delivery="streaming" type="application/x-mpegURL"><![CDATA[https://cdn.example/a.m3u8]]></MediaFile>
                </MediaFiles>
              </Linear>
            </Creative>
            <Creative><CompanionAds><Companion id="b" width="300" height="250">
              <StaticResource creativeType="image/png"><![CDATA[https://cdn.example/b.png]]></StaticResource>
              <TrackingEvents><Tracking event="creativeView"><![CDATA[https://ads.example/cv]]></Tracking></TrackingEvents>
            </Companion></CompanionAds></Creative>
            <Creative><NonLinearAds><NonLinear id="o" width="480" height="60" minSuggestedDuration="00:00:05">
              <IFrameResource><![CDATA[https://cdn.example/o.html]]></IFrameResource>
            </NonLinear><TrackingEvents><Tracking event="close"><![CDATA[https://ads.example/close]]></Tracking></TrackingEvents></NonLinearAds></Creative>
          </Creatives>
        </InLine>
      </Ad>
      <Ad id="w1">
        <Wrapper followAdditionalWrappers="false" allowMultipleAds="true" fallbackOnNoAd="true">
          <AdSystem>W</AdSystem>
          <VASTAdTagURI><![CDATA[ https://next.example/vast ]]></VASTAdTagURI>
          <Impression><![CDATA[https://w.example/imp]]></Impression>
        </Wrapper>
      </Ad>
      <Ad id="empty"></Ad>
    </VAST>
    """

    @Test("An inline ad and a wrapper: every field a tracker and `inspect` need")
    func inlineAndWrapper() throws {
        let document = try VASTParser().parse(Data(Self.inline.utf8))
        #expect(document.version == "4.3" && document.errorURLs == ["https://ads.example/root-error?c=[ERRORCODE]"])
        #expect(document.ads.map(\.id) == ["a1", "w1"], "an <Ad> with neither InLine nor Wrapper is dropped")
        let ad = document.ads[0]
        #expect(ad.sequence == 2 && ad.adType == "video" && ad.adServingID == "srv-1" && ad.adSystem == "Example")
        #expect(ad.inline?.title == "Spring sale" && ad.inline?.categories == ["IAB1-1"])
        #expect(ad.impressionURLs == ["https://ads.example/imp", "about:blank"])
        #expect(ad.viewableURLs == ["https://ads.example/viewable"])
        #expect(ad.verifications.first?.vendor == "example.com-omid" && ad.verifications.first?.parameters == #"{"k":1}"#)
        #expect(ad.verifications.first?.trackingEvents.map(\.event) == ["verificationNotExecuted"])
        let linear = try #require(ad.linear)
        #expect(linear.duration == 15.5 && linear.skipOffset == .percent(25))
        #expect(linear.trackingEvents.map(\.offset) == [nil, .seconds(5), .percent(10)])
        #expect(linear.clickThrough == "https://shop.example" && linear.clickTrackingURLs == ["https://ads.example/click"])
        #expect(linear.mediaFiles.map(\.isHLS) == [false, true] && linear.mediaFiles[0].bitrate == 800)
        #expect(ad.creatives[0].universalAdIDs == ["ad-id.org CNPA0484000H"])
        #expect(ad.creatives[1].companions.first?.resources == ["static image/png https://cdn.example/b.png"])
        #expect(ad.creatives[1].companions.first?.trackingEvents.map(\.event) == ["creativeView"])
        #expect(ad.creatives[2].nonLinears.first?.minSuggestedDuration == 5)
        #expect(ad.creatives[2].nonLinearTracking.map(\.event) == ["close"])
        let wrapper = try #require(document.ads[1].wrapper)
        #expect(wrapper == VASTWrapper(adTagURI: "https://next.example/vast", followAdditionalWrappers: false,
                                       allowMultipleAds: true, fallbackOnNoAd: true))
        #expect(document.pod.map(\.id) == ["a1"] && document.standAloneAds.map(\.id) == ["w1"])
    }

    @Test("What is not VAST is refused with its error code: 100 not XML, 101 not VAST, 102 a version not supported")
    func refusals() {
        func code(_ text: String) -> Int? {
            do { _ = try VASTParser().parse(Data(text.utf8)); return nil } catch { return error.code.rawValue }
        }
        #expect(code("not xml at all") == 100)
        #expect(code("<VAST version=\"4.0\"><Ad>") == 100)
        #expect(code("<html><body/></html>") == 101)
        #expect(code("<VAST version=\"1.0\"/>") == 102)
        #expect(code("<VAST version=\"4.1\"/>") == nil)
        // Bytes that are not UTF-8 in an element name crash Foundation's XMLParser on Linux: refused before it.
        var bytes = Array("<VAST version=\"4.0\"><".utf8) + [0xCD, 0xB3, 0xB3] + Array("/></VAST>".utf8)
        #expect(throws: VASTParseError.self) { try VASTParser().parse(Data(bytes)) }
        bytes = Array("<VAST version=\"4.0\"><Ad id=\"é\"><InLine/></Ad></VAST>".utf8)
        #expect((try? VASTParser().parse(Data(bytes)))?.ads.first?.id == "é")
    }

    @Test("A document with a DTD is refused: no entity ever expands (the billion laughs stay a few bytes)")
    func entities() {
        var laughs = #"<?xml version="1.0"?><!DOCTYPE VAST [<!ENTITY l0 "ha">"#
        for level in 1...12 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        laughs += #"]><VAST version="4.0"><Error>&l12;</Error></VAST>"#
        #expect(throws: VASTParseError.self) { try VASTParser().parse(Data(laughs.utf8)) }
        let external = #"<?xml version="1.0"?><!DOCTYPE VAST [<!ENTITY x SYSTEM "file:///etc/passwd">]><VAST version="4.0"><Error>&x;</Error></VAST>"#
        #expect(throws: VASTParseError.self) { try VASTParser().parse(Data(external.utf8)) }
    }

    @Test("A processing instruction without data is passed over (Foundation's XMLParser crashes on one); a cut document is refused")
    func processingInstructionsAndTruncation() throws {
        let document = try VASTParser().parse(Data(#"<?xml version="1.0"?><?p?><VAST version="4.0"><?q?><Ad id="a"><InLine/></Ad></VAST>"#.utf8))
        #expect(document.ads.map(\.id) == ["a"])
        #expect(throws: VASTParseError.self) { try VASTParser().parse(Data(#"<VAST version="4.0"><Ad id="a"><InLine>"#.utf8)) }
    }

    @Test("Bounds: too many ads, too deep, too large are refused; a long text is cut")
    func bounds() throws {
        var limits = VASTParser.Limits()
        limits.maximumAds = 3
        let fourAds = "<VAST version=\"4.0\">" + String(repeating: "<Ad><InLine/></Ad>", count: 4) + "</VAST>"
        #expect(throws: VASTParseError.self) { try VASTParser(limits: limits).parse(Data(fourAds.utf8)) }
        let deep = "<VAST version=\"4.0\">" + String(repeating: "<x>", count: 100) + String(repeating: "</x>", count: 100) + "</VAST>"
        #expect(throws: VASTParseError.self) { try VASTParser().parse(Data(deep.utf8)) }
        limits = VASTParser.Limits()
        limits.maximumBytes = 50
        #expect(throws: VASTParseError.self) { try VASTParser(limits: limits).parse(Data(fourAds.utf8)) }
        limits = VASTParser.Limits()
        limits.maximumTextBytes = 16
        let long = "<VAST version=\"4.0\"><Error>" + String(repeating: "x", count: 1_000) + "</Error></VAST>"
        #expect(try VASTParser(limits: limits).parse(Data(long.utf8)).errorURLs == [String(repeating: "x", count: 16)])
    }

    @Test("Offsets: clock times and percentages, and what is neither")
    func offsets() {
        #expect(VASTOffset("00:00:05") == .seconds(5) && VASTOffset(" 01:02:03.250 ") == .seconds(3723.25))
        #expect(VASTOffset("10%") == .percent(10) && VASTOffset("100%") == .percent(100))
        #expect(VASTOffset("101%") == nil && VASTOffset("00:61:00") == nil && VASTOffset("5") == nil && VASTOffset("") == nil)
        #expect(VASTOffset.percent(10).seconds(in: 30) == 3 && VASTOffset.percent(10).seconds(in: nil) == nil)
    }

    /// A document whose numbers and times are out of their form or range (issue 44): each one a problem at its line,
    /// the rest of the document kept.
    static let edges = """
    <VAST version="4.2">
    <Ad id="a" sequence="x">
    <InLine><AdTitle>t</AdTitle><Impression>https://t/imp</Impression>
    <Creatives><Creative sequence="1e300">
    <Linear skipoffset="9999999999999:00:00">
    <Duration>99:99:99</Duration>
    <TrackingEvents>
    <Tracking event="progress" offset="1e300%">https://t/p</Tracking>
    <Tracking>https://t/none</Tracking>
    <Tracking event="start">https://t/start</Tracking>
    </TrackingEvents>
    <MediaFiles><MediaFile type="application/x-mpegURL" width="-5" height="9223372036854775807" bitrate="9223372036854775807">https://m/a.m3u8</MediaFile></MediaFiles>
    </Linear></Creative></Creatives>
    </InLine>
    </Ad>
    <Ad id="hollow"></Ad>
    </VAST>
    """

    @Test("Numbers and times out of their form or range are problems at their line; the rest is kept")
    func edgeNumbersAreProblems() throws {
        let document = try VASTParser().parse(Data(Self.edges.utf8))
        let problems = document.problems.map { ($0.line, $0.message) }
        let expected: [(Int, String)] = [
            (2, #"<Ad> sequence "x" is not a whole number from 0 to 1000000: the ad is taken as a stand-alone ad"#),
            (4, #"<Creative> sequence "1e300" is not a whole number"#),
            (5, #"<Linear> skipoffset "9999999999999:00:00" is neither HH:MM:SS[.mmm] within 1000000000 s nor a percentage"#),
            (6, #"<Duration> "99:99:99" is not HH:MM:SS or HH:MM:SS.mmm within 1000000000 s: the ad's duration is unknown"#),
            (8, #"<Tracking event="progress"> offset "1e300%" is neither"#),
            (9, "<Tracking> without an event attribute: skipped"),
            (12, #"<MediaFile> width "-5" is not a whole number from 0 to 100000: left out"#),
            (12, #"<MediaFile> height "9223372036854775807""#),
            (12, #"<MediaFile> bitrate (kbit/s) "9223372036854775807" is not a whole number from 0 to 100000000"#),
            (16, #"<Ad id="hollow"> has neither <InLine> nor <Wrapper>: skipped"#),
        ]
        #expect(problems.count == expected.count, "\(document.problems)")
        for ((line, message), (expectedLine, prefix)) in zip(problems, expected) {
            #expect(line == expectedLine && message.hasPrefix(prefix), "line \(line): \(message)")
        }
        #expect(document.problems.first?.description.hasPrefix("line 2: <Ad> sequence") == true)
        // What could be read is kept.
        let ad = try #require(document.ads.first)
        #expect(document.ads.count == 1 && ad.sequence == nil && ad.impressionURLs == ["https://t/imp"])
        let linear = try #require(ad.linear)
        #expect(linear.duration == nil && linear.skipOffset == nil)
        #expect(linear.trackingEvents.map(\.event) == ["progress", "start"] && linear.trackingEvents[0].offset == nil)
        #expect(linear.mediaFiles.map(\.url) == ["https://m/a.m3u8"] && linear.mediaFiles[0].bitrate == nil
                && linear.mediaFiles[0].width == nil && linear.mediaFiles[0].height == nil)
        // A well-formed document has none.
        #expect(try VASTParser().parse(Data(Self.inline.replacingOccurrences(of: #"<Ad id="empty"></Ad>"#, with: "").utf8))
            .problems.isEmpty)
    }

    @Test("Parsing time grows linearly with the number of tracking events")
    func scaling() throws {
        func document(_ count: Int) -> [UInt8] {
            var text = #"<VAST version="4.2"><Ad id="a"><InLine><Creatives><Creative><Linear><Duration>00:00:30</Duration><TrackingEvents>"#
            for index in 0..<count { text += #"<Tracking event="progress" offset="00:00:\#(index % 30 < 10 ? "0" : "")\#(index % 30)"><![CDATA[https://t.example/p?i=\#(index)]]></Tracking>"# }
            return Array((text + "</TrackingEvents></Linear></Creative></Creatives></InLine></Ad></VAST>").utf8)
        }
        let ratio = try ScalingMeasure.ratio(small: document(1_000), large: document(16_000)) { bytes in
            try VASTParser().parse(Data(bytes)).ads.first?.linear?.trackingEvents.count ?? 0
        }
        #expect(ratio < 64, "parsing 16 times the events took \(ratio) times as long")
    }
}
