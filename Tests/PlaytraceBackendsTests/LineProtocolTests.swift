import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry
import Testing

@Suite("InfluxDB line protocol")
struct LineProtocolTests {
    private func line(_ body: (inout [UInt8]) -> Void) -> String {
        var buffer: [UInt8] = []
        body(&buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test("Events: action and dimensions as tags, typed fields, nanosecond timestamp")
    func event() {
        var event = Event(action: .start, date: StreamDate(secondsSince1970: 1_800_000_000.25))
        event[.contentId] = "urn:srf:1"
        event[.engine] = "headless"
        event[.position] = 12_000
        event[.bitrate] = 2.5e6
        event[.isMuted] = false
        event[.title] = "The show"
        let encoded = line { LineProtocolEncoder().encode(event, timestamp: 1_800_000_000_250_000_000, into: &$0) }
        #expect(encoded == "events,action=Start,contentId=urn:srf:1,engine=headless position=12000i,bitrate=2500000,isMuted=false,title=\"The show\" 1800000000250000000\n")
        #expect(LineProtocolEncoder.nanoseconds(event.date) == 1_800_000_000_250_000_000)
    }

    @Test("Timestamps come out whole, across every digit boundary")
    func timestampsFromPreviousDigits() {
        let encoder = LineProtocolEncoder()
        let metric = Metric(name: "PlayTime", kind: .counter, value: 1, date: StreamDate(secondsSince1970: 0))
        let timestamps: [Int64] = [5, 9_999_999, 10_000_000, 10_000_001, 1_800_000_000_000_000_000,
                                   1_800_000_000_000_000_001, 1_800_000_000_009_999_999, 1_800_000_000_010_000_000,
                                   1_800_000_000_010_000_000, 999_999_999_999_999_999, -12, 1_800_000_000_010_000_007,
                                   .max]
        for timestamp in timestamps {
            var buffer: [UInt8] = []
            encoder.encode(metric, timestamp: timestamp, into: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == "PlayTime,kind=counter value=1i \(timestamp)\n")
        }
    }

    @Test("A metric's dimension tags follow its dimensions: a new playback, new content, fewer tags")
    func dimensionTagsFollowTheDimensions() {
        let encoder = LineProtocolEncoder()
        func dimensions(_ playback: String, _ content: String, engine: Bool = true) -> AttributeList {
            var list = AttributeList()
            list[.sessionId] = "s1"
            list[.playbackId] = .string(playback)
            list[.contentId] = .string(content)
            if engine { list[.engine] = "headless" }
            return list
        }
        let cases: [(AttributeList, Set<String>)] = [
            (dimensions("p1", "c1"), ["sessionId=s1", "playbackId=p1", "contentId=c1", "engine=headless", "kind=counter"]),
            (dimensions("p2", "c1"), ["sessionId=s1", "playbackId=p2", "contentId=c1", "engine=headless", "kind=counter"]),
            (dimensions("p2", "c2"), ["sessionId=s1", "playbackId=p2", "contentId=c2", "engine=headless", "kind=counter"]),
            (dimensions("p3", "c2", engine: false), ["sessionId=s1", "playbackId=p3", "contentId=c2", "kind=counter"]),
        ]
        for (list, tags) in cases {
            var buffer: [UInt8] = []
            let metric = Metric(name: "NumPlays", kind: .counter, value: 1, date: StreamDate(secondsSince1970: 0),
                                dimensions: list)
            encoder.encode(metric, timestamp: 1, into: &buffer)
            let line = String(decoding: buffer, as: UTF8.self)
            let head = line.prefix { $0 != " " }
            #expect(Set(head.split(separator: ",").dropFirst().map(String.init)) == tags, "\(line)")
        }
    }

    @Test("An event's metrics and the event written in one go read as written one by one, flat events included")
    func eventWithItsMetricsInOneGo() {
        let encoder = LineProtocolEncoder()
        var dimensions = AttributeList()
        dimensions[.sessionId] = "s1"
        let date = StreamDate(secondsSince1970: 1_800_000_000.5)
        let metrics = [Metric(name: "NumPlays", kind: .counter, value: 1, date: date, dimensions: dimensions),
                       Metric(name: "StartTime", kind: .gauge, value: 840.5, date: date, dimensions: dimensions)]
        var plain = Event(action: .start, date: date)
        plain.context[.contentId] = "urn:1"
        plain[.position] = 0
        var shadowed = plain
        shadowed[.contentId] = "urn:2"   // its own attribute replaces the context's: the flat way
        for event in [plain, shadowed] {
            var together: [UInt8] = []
            var stamp: Int64 = 0
            encoder.encode(event, metrics: metrics, into: &together) { _ in
                stamp += 1
                return stamp
            }
            var apart: [UInt8] = []
            encoder.encode(metrics[0], timestamp: 1, into: &apart)
            encoder.encode(metrics[1], timestamp: 2, into: &apart)
            encoder.encode(event, timestamp: 3, into: &apart)
            #expect(together == apart)
            #expect(String(decoding: together, as: UTF8.self).split(separator: "\n").count == 3)
        }
    }

    @Test("Escaping: quotes, backslashes and line breaks in strings; commas, spaces and equals signs in keys and tags")
    func escaping() {
        var event = Event(action: Action(name: "Custom Action"), date: StreamDate(secondsSince1970: 0))
        event[.errorDescription] = "HTTP 500: \"server error\"\nat C:\\media"
        event[.contentId] = "a,b=c d"
        event[Attribute(name: "odd key=1")] = 1
        let encoded = line { LineProtocolEncoder(eventMeasurement: "my events").encode(event, timestamp: 5, into: &$0) }
        #expect(encoded == "my\\ events,action=Custom\\ Action,contentId=a\\,b\\=c\\ d errorDescription=\"HTTP 500: \\\"server error\\\"\nat C:\\\\media\",odd\\ key\\=1=1i 5\n")
    }

    @Test("Every ASCII byte at every place of short and long runs is escaped as its kind requires")
    func escapingAtEveryPlace() {
        let encoder = LineProtocolEncoder()
        // What each kind makes of one byte among letters (`last`: the byte ends the run).
        func measurement(_ byte: UInt8, last: Bool) -> String {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: " "): "\\" + String(UnicodeScalar(byte))
            case 0x0A, 0x0D, 0x09: "_"
            case UInt8(ascii: "\\"): last ? "" : "\\"
            default: String(UnicodeScalar(byte))
            }
        }
        func tag(_ byte: UInt8, last: Bool) -> String {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "="): "\\" + String(UnicodeScalar(byte))
            case 0x0A, 0x0D, 0x09: "\\ "
            default: measurement(byte, last: last)
            }
        }
        func field(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): "\\" + String(UnicodeScalar(byte))
            default: String(UnicodeScalar(byte))
            }
        }
        for length in [1, 7, 8, 9, 15, 16, 17, 24, 31, 33, 40] {
            for place in 0..<length {
                for byte in UInt8(1)...127 {
                    var bytes = [UInt8]("é".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[2 + place] = byte
                    let text = String(decoding: bytes, as: UTF8.self)
                    let before = "é" + String(repeating: "a", count: place)
                    let after = String(repeating: "a", count: length - place - 1)
                    let last = place == length - 1
                    let metric = Metric(name: text, kind: .counter, value: 1, date: StreamDate(secondsSince1970: 0))
                    let metricLine = line { encoder.encode(metric, timestamp: 5, into: &$0) }
                    #expect(metricLine == before + measurement(byte, last: last) + after + ",kind=counter value=1i 5\n",
                            "byte \(byte) at \(place) of \(length)")
                    var event = Event(action: .start, date: StreamDate(secondsSince1970: 0))
                    event[.contentId] = .string(text)
                    event[.title] = .string(text)
                    let eventLine = line { encoder.encode(event, timestamp: 5, into: &$0) }
                    #expect(eventLine == "events,action=Start,contentId=" + before + tag(byte, last: last) + after
                                + " title=\"" + before + field(byte) + after + "\" 5\n",
                            "byte \(byte) at \(place) of \(length)")
                }
            }
        }
    }

    @Test("Backslashes the line protocol cannot carry in tags (at the end, before an escape) are left out; others stay")
    func unwritableBackslashes() {
        var event = Event(action: .start, date: StreamDate(secondsSince1970: 0))
        event[.contentId] = "C:\\media\\"
        event[.engine] = "a\\,b c\\\\=d\\\\e"
        event[.sessionId] = "\\\\"
        event[.title] = "C:\\media\\"
        let encoded = line { LineProtocolEncoder().encode(event, timestamp: 5, into: &$0) }
        #expect(encoded == "events,action=Start,contentId=C:\\media,engine=a\\,b\\ c\\=d\\\\e title=\"C:\\\\media\\\\\" 5\n")
    }

    @Test("A playback id no tag can hold (empty, backslashes alone) is left out, from the snapshot as from a flat list")
    func unwritablePlaybackID() {
        for text in ["", "\\", "\\\\"] {
            var playback = PlaybackSnapshot()
            playback.playbackIdentifier = .text(text)
            let event = Event(action: .start, date: StreamDate(secondsSince1970: 0), playback: playback)
            let encoder = LineProtocolEncoder()
            let cached = line { encoder.encode(event, timestamp: 5, into: &$0) }
            let flat = line {
                encoder.encode(Event(action: .start, date: event.date, attributes: event.allAttributes), timestamp: 5,
                               into: &$0)
            }
            #expect(cached.hasPrefix("events,action=Start countErrors=0i,"), "\(cached)")
            #expect(flat.hasPrefix("events,action=Start "), "\(flat)")
            #expect(!cached.contains("playbackId") && !flat.contains("playbackId"))
        }
    }

    @Test("Metrics: one measurement per metric, whole counters as integers, gauges as floats")
    func metrics() {
        var dimensions = AttributeList()
        dimensions[.sessionId] = "s1"
        let date = StreamDate(secondsSince1970: 1)
        let counter = Metric(name: "NumPlays", kind: .counter, value: 1, date: date, dimensions: dimensions)
        let gauge = Metric(name: "RebufferingRatio", kind: .gauge, value: 0.0625, date: date, dimensions: dimensions)
        let whole = Metric(name: "StartTime", kind: .gauge, value: 840, date: date)
        let nan = Metric(name: "Broken", kind: .gauge, value: .nan, date: date)
        let encoder = LineProtocolEncoder()
        #expect(line { encoder.encode(counter, timestamp: 1, into: &$0) } == "NumPlays,sessionId=s1,kind=counter value=1i 1\n")
        #expect(line { encoder.encode(gauge, timestamp: 1, into: &$0) } == "RebufferingRatio,sessionId=s1,kind=gauge value=0.0625 1\n")
        #expect(line { encoder.encode(whole, timestamp: -12, into: &$0) } == "StartTime,kind=gauge value=840 -12\n")
        #expect(line { encoder.encode(nan, timestamp: 0, into: &$0) } == "Broken,kind=gauge value=0 0\n")
    }

    @Test("Integers at every width, negative ones and the extremes are written digit for digit; long strings fit their line")
    func integersAndLongText() {
        var values: [Int] = [0, 1, 9, 10, 99, 100, 101, 999, 1_000, -1, -10, -99, -100, .max, .min, .max - 1, .min + 1]
        var power = 1
        for _ in 0..<18 {
            power *= 10
            values += [power - 1, power, power + 1, -power]
        }
        for value in values {
            var event = Event(action: .ping, date: StreamDate(secondsSince1970: 0))
            event[.position] = .int(value)
            let encoded = line { LineProtocolEncoder().encode(event, timestamp: Int64(value == .min ? 0 : value), into: &$0) }
            let timestamp = value == .min ? "0" : "\(value)"
            #expect(encoded == "events,action=Ping position=\(value)i \(timestamp)\n")
        }
        var event = Event(action: .error, date: StreamDate(secondsSince1970: 0))
        let text = String(repeating: "\"quoted\" \\ ,= \n", count: 5_000)
        event[.errorDescription] = .string(text)
        event[.contentId] = .string(String(repeating: ", =\n", count: 5_000))
        let encoded = line { LineProtocolEncoder().encode(event, timestamp: 1, into: &$0) }
        // Each `"quoted" \ ,= ⏎` gains three backslashes in the field; each `, =⏎` of the tag doubles.
        let expected = "events,action=Error,contentId=".utf8.count + 5_000 * 8 + " errorDescription=\"".utf8.count
            + 5_000 * 18 + "\" 1\n".utf8.count
        #expect(encoded.utf8.count == expected, "every quote and backslash escaped, the tag's specials too")
        #expect(encoded.hasSuffix("\" 1\n"))
    }

    @Test("Names no key can hold (empty, backslashes alone) are left out: the line stays one InfluxDB accepts")
    func unwritableNames() {
        for name in ["", "\\", "\\\\"] {
            var event = Event(action: Action(name: name), date: StreamDate(secondsSince1970: 0))
            event.context[Attribute(name: name)] = "context"
            event[Attribute(name: name)] = 1
            event[.position] = 5
            for encoder in [LineProtocolEncoder(), LineProtocolEncoder(tagAttributes: [Attribute(name: name)])] {
                let written = line { encoder.encode(event, timestamp: 7, into: &$0) }
                #expect(written == "events position=5i 7\n", "\(written.debugDescription)")
                #expect(ReadPoint(line: Array(written.utf8)) == ReadPoint.expected(event, encoder: encoder, timestamp: 7))
            }
        }
    }

    @Test("Random events, names and values full of the protocol's special bytes, read back by a reference reader as written")
    func readBackByTheReferenceReader() {
        var state: UInt64 = 0x1F2E_3D4C
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = ["a", "Z", "0", ",", " ", "=", "\"", "\\", "\\", "\n", "\r", "\t", "é", "😀", "_"]
        func text() -> String { (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined() }
        func value() -> AttributeValue {
            switch next(5) {
            case 0: .int(next(2_000_000) - 1_000_000)
            case 1: .double([0.5, -3, 1e300, .nan, .infinity, 2.5e-7][next(6)])
            case 2: .bool(next(2) == 0)
            default: .string(text())
            }
        }
        let names = (0..<6).map { "k\($0)" + text() }
        var context = AttributeList()
        for round in 0..<400 {
            var encoder = LineProtocolEncoder(eventMeasurement: round % 3 == 0 ? "play, events\n" + text() : "events")
            encoder.tagAttributes.formUnion(names.filter { _ in next(2) == 0 }.map { Attribute(name: $0) })
            var playback = PlaybackSnapshot()
            playback.playbackIdentifier = .text(text())
            playback.accumPlayTime = next(100_000)
            var event = Event(action: next(4) == 0 ? Action(name: "Odd,= " + text()) : .ping,
                              date: StreamDate(secondsSince1970: 1_800_000_000), playback: next(2) == 0 ? playback : .none)
            // Half the events share the previous one's context.
            if next(2) == 0 {
                context = AttributeList()
                for _ in 0..<next(6) { context[Attribute(name: names[next(names.count)])] = value() }
            }
            event.context = context
            for _ in 0..<next(6) { event[Attribute(name: names[next(names.count)])] = value() }
            event[.contentId] = .string(text())
            var line: [UInt8] = []
            encoder.encode(event, timestamp: Int64(round), into: &line)
            let expected = ReadPoint.expected(event, encoder: encoder, timestamp: Int64(round))
            #expect(ReadPoint(line: line) == expected, "\(String(decoding: line, as: UTF8.self).debugDescription)")
        }
    }
}
