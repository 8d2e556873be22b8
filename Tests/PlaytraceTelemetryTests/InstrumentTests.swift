import PlaytraceCore
import PlaytraceTelemetry
import Synchronization
import PlaytraceTestSupport
import Testing

/// A component that remembers its life cycle.
private final class LifeCycle: Hub, Metricalc, TelemetryTracker, Sendable {
    let readied = Atomic<Int>(0)
    let ended = Atomic<Int>(0)
    func instrumentReady(_ instrument: Instrument) { readied.add(1, ordering: .relaxed) }
    func endOfService() { ended.add(1, ordering: .relaxed) }
    func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID, instrument: Instrument) -> Bool {
        event[.title] = "seen by the hub"
        return true
    }
    func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument) -> [Metric] {
        [Metric(name: "Seen", kind: .counter, value: 1, date: event.date)]
    }
}

@Suite("Instrument")
struct InstrumentTests {
    @Test("Hot-plugging: replaced and removed components end their service, new ones take over; shutdown ends all")
    func hotPlugging() async throws {
        let harness = TelemetryHarness(hub: nil)
        let first = LifeCycle()
        harness.instrument.setHub(first)
        harness.instrument.ready()
        #expect(first.readied.load(ordering: .relaxed) == 1)
        harness.emit(.ping)
        #expect(harness.backend.events.last?[.title] == "seen by the hub")

        let second = LifeCycle()
        harness.instrument.setHub(second)
        harness.instrument.setMetricalc(LifeCycle())
        #expect(first.ended.load(ordering: .relaxed) == 1, "the replaced hub ends its service")
        harness.emit(.ping)
        #expect(harness.backend.metrics(named: "Seen").count == 1, "the new metricalc computes")

        let tracker = LifeCycle()
        let id = harness.instrument.addTracker(tracker)
        harness.instrument.emit(.ping, tracker: id)
        #expect(harness.backend.events.count == 3)
        harness.instrument.removeTracker(id)
        #expect(tracker.ended.load(ordering: .relaxed) == 1)
        harness.instrument.emit(.ping, tracker: id)
        #expect(harness.backend.events.count == 3, "a removed tracker's events go nowhere")

        let replacement = RecordingBackend()
        harness.instrument.setBackends([replacement])
        #expect(harness.backend.hasEnded, "the replaced backend ends its service")
        harness.emit(.ping)
        #expect(replacement.events.count == 1 && harness.backend.events.count == 3)

        harness.instrument.shutdown()
        #expect(second.ended.load(ordering: .relaxed) == 1 && replacement.hasEnded)
        harness.emit(.ping)
        #expect(replacement.events.count == 1, "nothing after shutdown")
    }

    @Test("Getters: registered per tracker and attribute, called by any component, used on events, removed with the tracker")
    func getters() {
        let harness = TelemetryHarness(hub: nil)
        let position = Locked(1_000)
        harness.instrument.registerGetter(.position, tracker: harness.tracker) { .int(position.withLock { $0 }) }
        #expect(harness.instrument.callGetter(.position, tracker: harness.tracker) == .int(1_000))
        #expect(harness.instrument.callGetter(.duration, tracker: harness.tracker) == nil)
        #expect(harness.instrument.callGetter(.position, tracker: TrackerID(rawValue: 999)) == nil)
        position.withLock { $0 = 2_500 }
        var event = Event(action: .ping, date: StreamDate(secondsSince1970: 0))
        harness.instrument.useGetter(.position, on: &event, tracker: harness.tracker)
        harness.instrument.useGetter(.duration, on: &event, tracker: harness.tracker)
        #expect(event[.position] == .int(2_500) && event[.duration] == nil)
        harness.instrument.unregisterGetter(.position, tracker: harness.tracker)
        #expect(harness.instrument.callGetter(.position, tracker: harness.tracker) == nil)
        harness.instrument.registerGetter(.volume, tracker: harness.tracker) { .int(80) }
        harness.instrument.removeTracker(harness.tracker)
        #expect(harness.instrument.callGetter(.volume, tracker: harness.tracker) == nil)
    }

    @Test("Custom actions and attributes: by name, the same when created twice, with their own time-since attribute")
    func customActions() async {
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        let skipIntro = Action(name: "SkipIntro")
        #expect(skipIntro == Action(name: "SkipIntro") && skipIntro.timeAttribute.name == "timeSinceSkipIntro")
        #expect(Attribute(name: "contentRating") == Attribute(name: "contentRating"))
        #expect(Attribute(name: "position") == .position, "a standard name gives the standard attribute")
        harness.emit(.mediaRequest)
        harness.emit(.start)
        harness.emit(skipIntro, [(Attribute(name: "contentRating"), "PG")])
        await harness.advance(.milliseconds(1_500))
        harness.emit(.ping)
        let ping = harness.backend.last(.ping)
        #expect(ping?[skipIntro.timeAttribute] == .int(1_500))
        #expect(harness.backend.last(skipIntro)?[Attribute(name: "contentRating")] == "PG")
    }

    @Test("Backends hand their batches over after a playback's start, errors and close, not after every event")
    func flushing() {
        let harness = TelemetryHarness(hub: HubCore(pingInterval: .zero))
        for action in [Action.mediaRequest, .start, .ping, .error, .pauseBegin, .pauseFinish, .end] { harness.emit(action) }
        #expect(harness.backend.flushedAfter == ["Start", "Error", "End"])
    }
}
