import Clocks
import PlaytraceBackends
import PlaytraceCore
import PlaytraceTelemetry
import PlaytraceTestSupport
import Testing

/// A tracker whose context the test sets, and which can add its own attributes to the next events.
final class ContextTracker: TelemetryTracker, Sendable {
    private let state = Locked<(context: AttributeList, own: AttributeList)>((AttributeList(), AttributeList()))

    func setContext(_ context: AttributeList) { state.withLock { $0.context = context } }
    func setOwn(_ own: AttributeList) { state.withLock { $0.own = own } }

    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool {
        let (context, own) = state.withLock { ($0.context, $0.own) }
        event.context = context
        for entry in own { event[entry.attribute] = entry.value }
        return true
    }
}

@Suite("Events: the tracker's context, their own attributes and the hub's snapshot")
struct EventModelTests {
    private let date = StreamDate(secondsSince1970: 1_800_000_000)

    @Test("An event reads its own attributes first, then the hub's snapshot, senderId, the context; nil removes from all")
    func precedence() {
        var context = AttributeList()
        context[.title] = "From the context"
        context[.contentId] = "urn:1"
        context[.countStarts] = 99
        var snapshot = PlaybackSnapshot()
        snapshot.playbackID = "p1"
        snapshot.countStarts = 1
        var event = Event(action: .start, date: date, sender: TrackerID(rawValue: 7), context: context,
                          playback: snapshot)
        #expect(event[.title] == "From the context")
        #expect(event[.countStarts] == 1, "the snapshot wins over the context")
        #expect(event[.senderId] == 7)
        #expect(event[.playbackId] == "p1")
        #expect(event[.inPauseBlock] == false)
        #expect(event[.position] == nil)

        event[.title] = "Own"
        event[.countStarts] = 5
        #expect(event[.title] == "Own" && event[.countStarts] == 5)
        var names: [String] = []
        var values: [String: AttributeValue] = [:]
        event.forEachAttribute { attribute, value in
            names.append(attribute.name)
            values[attribute.name] = value
        }
        #expect(names.count == Set(names).count, "one entry per attribute: \(names)")
        #expect(values["title"] == "Own" && values["countStarts"] == 5 && values["senderId"] == 7)
        #expect(values["contentId"] == "urn:1" && values["playbackId"] == "p1")
        #expect(event.allAttributes.count == names.count)

        event[.countStarts] = nil
        event[.contentId] = nil
        event[.senderId] = nil
        #expect(event[.countStarts] == nil, "removed from its own attributes, the snapshot and the context")
        #expect(event[.contentId] == nil && event[.senderId] == nil)
        #expect(!event.allAttributes.contains(.countStarts) && !event.allAttributes.contains(.contentId))
    }

    @Test("Time since: the previous occurrence of the event's own action and the last of the others; an explicit value wins")
    func timeSince() async {
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        harness.emit(.mediaRequest)
        await harness.advance(.seconds(2))
        harness.emit(.start)
        await harness.advance(.seconds(30))
        harness.emit(.ping)
        await harness.advance(.seconds(30))
        harness.emit(.ping)
        harness.emit(.ping, [(Action.start.timeAttribute, 5)])
        let pings = harness.backend.events.filter { $0.action == .ping }
        #expect(pings.count == 3)
        #expect(pings[0][Action.ping.timeAttribute] == nil, "no earlier Ping")
        #expect(pings[1][Action.ping.timeAttribute] == 30_000)
        #expect(pings[1][Action.start.timeAttribute] == 60_000)
        #expect(pings[1][Action.mediaRequest.timeAttribute] == 62_000)
        #expect(pings[2][Action.start.timeAttribute] == 5)
        #expect(pings[2][Action.ping.timeAttribute] == 0)
        var timeNames: [String] = []
        pings[2].forEachAttribute { attribute, _ in if attribute.name.hasPrefix("timeSince") { timeNames.append(attribute.name) } }
        #expect(timeNames.sorted() == ["timeSinceMediaRequest", "timeSincePing", "timeSinceStart"])
    }

    @Test("Standard actions' time-since attributes are named after them; the snapshot's constant mask is its attributes'")
    func timeAttributeNames() {
        #expect(PlaybackSnapshot.carryingAll == PlaybackSnapshot.mask(of: PlaybackSnapshot.stateAttributes))
        #expect(PlaybackSnapshot.none.carried == 0 && PlaybackSnapshot()[.countStarts] == 0)
        for action in Action.standard {
            #expect(action.timeAttribute.name == "timeSince" + action.name)
            #expect(action.standardIndex.map { Action.standard[$0] } == action)
        }
        #expect(Action(name: "SkipIntro").standardIndex == nil)
    }

    @Test("Attributes and actions are identifiers; their names come back from the tables and the registry")
    func namesFromIdentifiers() {
        for attribute in Attribute.allStandard {
            #expect(Attribute(name: attribute.name) == attribute)
            #expect(!attribute.name.isEmpty && !attribute.name.hasPrefix("attribute"))
        }
        #expect(Attribute.playbackId.name == "playbackId" && Attribute.failureStage.name == "failureStage")
        let custom = Attribute(name: "contentRating")
        #expect(custom.name == "contentRating" && custom == Attribute(name: "contentRating") && custom != .title)
        #expect(Action(name: "MediaRequest") == .mediaRequest && Action(name: "MediaRequest").name == "MediaRequest")
        let skip = Action(name: "Skip Intro")
        #expect(skip.name == "Skip Intro" && skip.timeAttribute.name == "timeSinceSkip Intro")
        let chosen = Action(name: "Chapter", timeAttribute: Attribute(name: "sinceChapter"))
        #expect(chosen.name == "Chapter" && chosen.timeAttribute.name == "sinceChapter")
        #expect(MemoryLayout<Attribute>.size == 4 && MemoryLayout<Action>.size == 4, "plain identifiers")
        #expect(Instrument.flushingActions == [.start, .error, .end, .stop, .next])
        #expect(Action.standard.filter(\.isAdAction) == Array(Action.standard[25...]))
        #expect(!Action(name: "AdLike").isAdAction && !Action.ping.isAdAction)
    }

    @Test("The line encoder writes an event's context, own attributes and snapshot as it writes one flat list of them")
    func encoderFlat() async {
        let tracker = ContextTracker()
        let backend = RecordingBackend()
        let clock = TestClock<Duration>()
        let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: nil, backends: [backend],
                                    clock: clock, origin: date)
        let id = instrument.addTracker(tracker)
        instrument.ready()
        var context = AttributeList()
        context[.title] = "A show, with \"quotes\""
        context[.contentId] = "urn:1"
        context[.sessionId] = "s 1"
        context[.bitrate] = 1_000_000
        context[Attribute(name: "rating")] = "PG"
        tracker.setContext(context)
        for action in [Action.mediaRequest, .streamLoad, .start, .ping, .pauseBegin, .pauseFinish, .bufferBegin] {
            instrument.emit(action, tracker: id)
            await clock.advance(by: .milliseconds(1_250))
        }
        // Own attributes that replace the context's and the snapshot's, and an explicit time-since value.
        var own = AttributeList()
        own[.bitrate] = 2_000_000
        own[.countErrors] = 12
        own[Action.start.timeAttribute] = 1
        own[Attribute(name: "rating")] = "R"
        tracker.setOwn(own)
        instrument.emit(.qualityChangeUp, tracker: id)
        tracker.setOwn(AttributeList())
        context[.bitrate] = 2_000_000
        tracker.setContext(context)
        for action in [Action.bufferFinish, .ping, .seekBegin, .seekFinish, .end] {
            instrument.emit(action, tracker: id)
            await clock.advance(by: .milliseconds(700))
        }
        instrument.shutdown()
        let events = backend.events
        #expect(events.count == 13)

        let custom = LineProtocolEncoder(tagAttributes: Set(Attribute.dimensions)
            .union([.senderId, Action.start.timeAttribute, Attribute(name: "rating"), .inPauseBlock]))
        for encoder in [LineProtocolEncoder(), custom] {
            for event in events {
                var whole: [UInt8] = []
                encoder.encode(event, timestamp: 1, into: &whole)
                var slow: [UInt8] = []
                encoder.encode(Event(action: event.action, date: event.date, attributes: event.allAttributes),
                               timestamp: 1, into: &slow)
                let (fastLine, slowLine) = (String(decoding: whole, as: UTF8.self), String(decoding: slow, as: UTF8.self))
                #expect(LinePoint(fastLine) == LinePoint(slowLine), "\(fastLine) vs \(slowLine)")
            }
        }
        // One encoder, its tags changed in between: the line follows.
        var encoder = LineProtocolEncoder()
        var buffer: [UInt8] = []
        encoder.encode(events[3], timestamp: 1, into: &buffer)
        #expect(LinePoint(String(decoding: buffer, as: UTF8.self)).fields.contains("title=\"A show, with \\\"quotes\\\"\""))
        encoder.tagAttributes.insert(.title)
        buffer.removeAll()
        encoder.encode(events[3], timestamp: 1, into: &buffer)
        #expect(LinePoint(String(decoding: buffer, as: UTF8.self)).tags.contains("title=A\\ show\\,\\ with\\ \"quotes\""))
    }
}

extension EventModelTests {
    @Test("The snapshot reads as one flat list of its attributes: every combination of block flags, counters, time since standard and custom actions")
    func snapshotBlock() async {
        let backend = RecordingBackend()
        let clock = TestClock<Duration>()
        let instrument = Instrument(hub: HubCore(pingInterval: .zero), metricalc: nil, backends: [backend],
                                    clock: clock, origin: date)
        let id = instrument.addTracker(PlainTracker())
        instrument.ready()
        for action in [Action.mediaRequest, .streamLoad, .start, Action(name: "Skip Intro"), .ping, .error] {
            instrument.emit(action, tracker: id)
            await clock.advance(by: .milliseconds(1_234_567))
        }
        instrument.shutdown()
        guard var event = backend.events.last else {
            Issue.record("no event")
            return
        }
        event.playback.accumPlayTime = 98_765_432
        event.playback.countErrors = 3
        event.context[.contentId] = "urn:1"
        event.context[.title] = "The show"
        let encoder = LineProtocolEncoder()
        for flags in 0..<64 {
            event.playback.inPauseBlock = flags & 1 != 0
            event.playback.inSeekBlock = flags & 2 != 0
            event.playback.inBufferBlock = flags & 4 != 0
            event.playback.inPlaybackBlock = flags & 8 != 0
            event.playback.inAdBreakBlock = flags & 16 != 0
            event.playback.inAdBlock = flags & 32 != 0
            var block: [UInt8] = []
            encoder.encode(event, timestamp: 1, into: &block)
            var flat: [UInt8] = []
            encoder.encode(Event(action: event.action, date: event.date, attributes: event.allAttributes),
                           timestamp: 1, into: &flat)
            let (blockLine, flatLine) = (String(decoding: block, as: UTF8.self), String(decoding: flat, as: UTF8.self))
            #expect(LinePoint(blockLine) == LinePoint(flatLine), "\(blockLine) vs \(flatLine)")
            #expect(blockLine.contains("timeSinceSkip\\ Intro=") && blockLine.contains("accumPlayTime=98765432i"))
        }
    }
}

/// A line-protocol line cut into its parts, tags and fields as sets (their order does not matter to InfluxDB).
struct LinePoint: Equatable {
    let measurement: String
    let tags: Set<String>
    let fields: Set<String>
    let timestamp: String

    init(_ line: String) {
        // Split on spaces and commas that are neither escaped nor inside a quoted field value.
        var sections: [[String]] = [[""]]
        var inQuotes = false
        var escaped = false
        for character in line.dropLast(line.hasSuffix("\n") ? 1 : 0) {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if !inQuotes, character == " " {
                sections.append([""])
                continue
            } else if !inQuotes, character == "," {
                sections[sections.count - 1].append("")
                continue
            }
            sections[sections.count - 1][sections[sections.count - 1].count - 1].append(character)
        }
        measurement = sections.first?.first ?? ""
        tags = Set(sections.first?.dropFirst() ?? [])
        fields = Set(sections.count > 1 ? sections[1] : [])
        timestamp = sections.count > 2 ? sections[2].joined() : ""
    }
}
