import Clocks
import PlaytraceCore
import PlaytraceTelemetry
import Synchronization

/// A backend that keeps what it receives.
final class RecordingBackend: Backend, Sendable {
    private let storage = Mutex<(events: [Event], metrics: [Metric], ended: Bool, flushedAfter: [String])>(([], [], false, []))

    func sendEvent(_ event: Event) { storage.withLock { $0.events.append(event) } }
    func sendMetric(_ metric: Metric) { storage.withLock { $0.metrics.append(metric) } }
    func endOfService() { storage.withLock { $0.ended = true } }
    func flush() { storage.withLock { $0.flushedAfter.append($0.events.last?.action.name ?? "") } }

    /// The action of the last event received before each ``flush()``.
    var flushedAfter: [String] { storage.withLock { $0.flushedAfter } }

    var events: [Event] { storage.withLock { $0.events } }
    var metrics: [Metric] { storage.withLock { $0.metrics } }
    var actions: [String] { events.map(\.action.name) }
    var hasEnded: Bool { storage.withLock { $0.ended } }

    func last(_ action: Action) -> Event? { events.last { $0.action == action } }
    func metrics(named name: String) -> [Metric] { metrics.filter { $0.name == name } }
}

/// A tracker that adds nothing.
final class PlainTracker: TelemetryTracker, Sendable {
    let ads: Bool
    init(ads: Bool = false) { self.ads = ads }
    var isAdsTracker: Bool { ads }
}

/// An instrument on a test clock with a recording backend.
struct TelemetryHarness {
    let clock = TestClock<Duration>()
    let backend = RecordingBackend()
    let instrument: Instrument
    let tracker: TrackerID

    init(hub: sending (any Hub)? = HubCore(), metricalc: sending (any Metricalc)? = nil,
         backends: [any Backend & Sendable] = [], origin: StreamDate = StreamDate(secondsSince1970: 1_800_000_000)) {
        instrument = Instrument(hub: hub, metricalc: metricalc, backends: [backend] + backends, clock: clock,
                                origin: origin)
        tracker = instrument.addTracker(PlainTracker())
        instrument.ready()
    }

    func emit(_ action: Action, _ attributes: [(Attribute, AttributeValue)] = []) {
        var list = AttributeList()
        for (attribute, value) in attributes { list[attribute] = value }
        instrument.emit(action, tracker: tracker, attributes: list)
    }

    func advance(_ duration: Duration) async { await clock.advance(by: duration) }
}
