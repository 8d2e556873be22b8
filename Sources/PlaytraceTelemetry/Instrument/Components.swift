/// A part of an instrument: a tracker, a hub, a metricalc or a backend.
///
/// The instrument calls its components one at a time, never concurrently (see ``Instrument``), so a component
/// needs no locking of its own for what the instrument calls.
public protocol InstrumentComponent: AnyObject {
    /// The instrument is ready (``Instrument/ready()``): set up, start timers, register getters.
    func instrumentReady(_ instrument: Instrument)
    /// The component was removed or replaced, or the instrument shut down: stop timers, flush.
    func endOfService()
}

public extension InstrumentComponent {
    func instrumentReady(_ instrument: Instrument) {}
    func endOfService() {}
}

/// Identifies a tracker within an instrument.
public struct TrackerID: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public var description: String { "\(rawValue)" }
}

/// Knows a player (or an ad library) and turns what happens there into events.
///
/// Trackers are shared with the code that feeds them (a `PlayerItemTracker`, an ad tracker), so they are
/// `Sendable`.
public protocol TelemetryTracker: InstrumentComponent, Sendable {
    /// Completes an event emitted for this tracker (attributes from its player, getters); `false` drops it.
    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool
    /// Whether the tracker reports ads (its events go through the ads rules of ``HubCoreAds``).
    var isAdsTracker: Bool { get }
}

public extension TelemetryTracker {
    func initEvent(_ event: inout Event, instrument: Instrument, tracker: TrackerID) -> Bool { true }
    var isAdsTracker: Bool { false }
}

/// The business logic between trackers and metrics: which events make sense in which state, and the per-playback
/// state they update (flags, counters, accumulated and time-since values).
public protocol Hub: InstrumentComponent {
    /// Processes an event of `tracker`; `false` drops it.
    func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID, instrument: Instrument) -> Bool
}

/// Turns events into metrics.
public protocol Metricalc: InstrumentComponent {
    /// The metrics an event produces.
    func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument) -> [Metric]
    /// Appends the metrics an event produces to `metrics`: what the instrument calls, with a list it reuses from
    /// event to event (so that an event's metrics cost no allocation). By default, appends
    /// ``processMetric(_:state:tracker:instrument:)``'s.
    func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument,
                       into metrics: inout [Metric])
}

public extension Metricalc {
    func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument,
                       into metrics: inout [Metric]) {
        metrics += processMetric(event, state: state, tracker: tracker, instrument: instrument)
    }
}

/// Where events and metrics go: a database, a service, a file.
///
/// Backends are called on the instrument's serial path and must return quickly: they batch, and send through the
/// `Outbox` off that path.
public protocol Backend: InstrumentComponent {
    func sendEvent(_ event: Event)
    func sendMetric(_ metric: Metric)
    /// The metrics an event produced, then the event: what the instrument calls for each event. By default,
    /// ``sendMetric(_:)`` for each metric, then ``sendEvent(_:)``; a backend that takes a lock for each record
    /// takes it once here.
    func send(_ event: Event, metrics: [Metric])
    /// Hands what is batched over for delivery now: called after the events of ``Instrument/flushingActions``
    /// (a playback's start, close and errors) and their metrics. Backends that do not batch ignore it.
    func flush()
}

public extension Backend {
    func send(_ event: Event, metrics: [Metric]) {
        for index in metrics.indices { sendMetric(metrics[index]) }
        sendEvent(event)
    }

    func flush() {}
}
