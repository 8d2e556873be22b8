import PlaytraceDASH
import Testing

@Suite("MPD values: xs:duration, segment URL templates")
struct ValueTests {
    @Test("Durations on the DASH-IF fixed calendar, fractions to the attosecond")
    func durations() throws {
        #expect(try XSDuration.parse("PT1M30.5S") == .milliseconds(90_500))
        #expect(try XSDuration.parse("PT0S") == .zero)
        #expect(try XSDuration.parse("P1DT2H") == .seconds(26 * 3_600))
        #expect(try XSDuration.parse("P1Y2M") == .seconds((360 + 60) * 86_400))
        #expect(try XSDuration.parse("PT2H") == .seconds(7_200))
        #expect(try XSDuration.parse(" PT1.000000000000000001S ") == Duration(secondsComponent: 1, attosecondsComponent: 1))
        #expect(try XSDuration.parse("PT0.1234567890123456789999S")
                == Duration(secondsComponent: 0, attosecondsComponent: 123_456_789_012_345_678))
        #expect(try XSDuration.parse("-PT5S") == .seconds(-5))
        #expect(try XSDuration.parse("PT3600S") == .seconds(3_600))
    }

    @Test("What is not a duration is said, never read as one",
          arguments: ["", "P", "PT", "1S", "PT1", "PT1.S", "P1H", "PT1D", "PT1S1M", "PT1M1M", "P1.5D", "PTS",
                      "P99999999999999999999D", "P106751991167301D", "PT1S junk", "P-1D"])
    func notDurations(_ text: String) {
        #expect(throws: XSDuration.ParseError.self) { try XSDuration.parse(text) }
    }

    @Test("Templates: identifiers, widths never cut, $$, and what is kept as text")
    func templates() {
        let template = SegmentURLTemplate("v/$RepresentationID$/$Bandwidth$-$Number%05d$-$Time$.m4s?x=$$")
        #expect(template.url(representationID: "720p", number: 42, bandwidth: 3_000_000, time: 900_000)
                == "v/720p/3000000-00042-900000.m4s?x=$")
        #expect(template.usesNumber && template.usesTime && template.problems.isEmpty)
        #expect(SegmentURLTemplate("$Number%03d$").url(number: 123_456) == "123456")
        #expect(SegmentURLTemplate("$Number%5d$").url(number: 7) == "00007")
        #expect(SegmentURLTemplate("$Time%08x$").url(time: 255) == "000000ff")
        #expect(SegmentURLTemplate("$Time%X$").url(time: 255) == "FF")
        let odd = SegmentURLTemplate("a$Foo$b$Number%05s$c$Number")
        #expect(odd.url(number: 1) == "a$Foo$b$Number%05s$c$Number")
        #expect(odd.problems.count == 3)
        #expect(SegmentURLTemplate("$Number%0999999999999d$").url(number: 1).count == SegmentURLTemplate.maximumWidth)
    }
}
