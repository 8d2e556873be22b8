public import Clocks
public import PlaytraceCore
public import PlaytraceTelemetry

/// A backend that keeps what it receives.
public final class RecordingBackend: Backend, Sendable {
    private let storage = Locked<(events: [Event], metrics: [Metric], ended: Bool, flushedAfter: [String])>(([], [], false, []))

    public init() {}

    public func sendEvent(_ event: Event) { storage.withLock { $0.events.append(event) } }
    public func sendMetric(_ metric: Metric) { storage.withLock { $0.metrics.append(metric) } }
    public func endOfService() { storage.withLock { $0.ended = true } }
    public func flush() { storage.withLock { $0.flushedAfter.append($0.events.last?.action.name ?? "") } }

    /// The action of the last event received before each ``flush()``.
    public var flushedAfter: [String] { storage.withLock { $0.flushedAfter } }

    public var events: [Event] { storage.withLock { $0.events } }
    public var metrics: [Metric] { storage.withLock { $0.metrics } }
    public var actions: [String] { events.map(\.action.name) }
    public var hasEnded: Bool { storage.withLock { $0.ended } }

    public func last(_ action: Action) -> Event? { events.last { $0.action == action } }
    public func metrics(named name: String) -> [Metric] { metrics.filter { $0.name == name } }
}

/// A tracker that adds nothing.
public final class PlainTracker: TelemetryTracker, Sendable {
    let ads: Bool
    public init(ads: Bool = false) { self.ads = ads }
    public var isAdsTracker: Bool { ads }
}

/// An instrument on a test clock with a recording backend.
public struct TelemetryHarness: Sendable {
    public let clock = TestClock<Duration>()
    public let backend = RecordingBackend()
    public let instrument: Instrument
    public let tracker: TrackerID

    public init(hub: sending (any Hub)? = HubCore(), metricalc: sending (any Metricalc)? = nil,
         backends: [any Backend & Sendable] = [], origin: StreamDate = StreamDate(secondsSince1970: 1_800_000_000)) {
        instrument = Instrument(hub: hub, metricalc: metricalc, backends: [backend] + backends, clock: clock,
                                origin: origin)
        tracker = instrument.addTracker(PlainTracker())
        instrument.ready()
    }

    public func emit(_ action: Action, _ attributes: [(Attribute, AttributeValue)] = []) {
        var list = AttributeList()
        for (attribute, value) in attributes { list[attribute] = value }
        instrument.emit(action, tracker: tracker, attributes: list)
    }

    public func advance(_ duration: Duration) async { await clock.advance(by: duration) }
}
