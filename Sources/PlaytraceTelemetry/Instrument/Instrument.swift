public import Logging
public import PlaytraceCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Puts trackers, a hub, a metricalc and backends together: every emitted action becomes an event that flows
/// tracker → hub → metricalc → backends.
///
/// **Thread-safe by construction.** Anything may call the instrument from any thread. Work (events, and changes of
/// components) goes into one queue; whoever finds the queue idle drains it, so components are called one at a time,
/// in order, and need no locks of their own. A component that emits while it is being called (a hub's heartbeat,
/// a tracker reacting to an event) only queues its event: it runs after the current one.
///
/// ```swift
/// let instrument = Instrument(hub: HubCore(), metricalc: MetricalcCore(), backends: [influx], clock: clock)
/// let tracker = instrument.addTracker(PlayerTelemetryTracker())
/// instrument.ready()
/// instrument.emit(.mediaRequest, tracker: tracker)
/// ```
public final class Instrument: Sendable {
    /// Room for an event's own attributes (those of its tracker's context and the hub's snapshot are apart).
    static let eventCapacity = 16

    /// Actions after which backends hand their batches over at once (``Backend/flush()``), as analytics SDKs do:
    /// the start and the close of a playback and an error reach the server without waiting for the batch interval.
    /// (Marked `flushing` in the vocabulary table.)
    public static let flushingActions: Set<Action> = Set(Action.standard.filter {
        Action.flushingMask & 1 << UInt64($0.standardIndex!) != 0
    })

    private static func isFlushing(_ action: Action) -> Bool {
        guard let index = action.standardIndex else { return false }
        return Action.flushingMask & (1 << UInt64(index)) != 0
    }

    /// The clock durations, timers and dates follow.
    public let clock: any Clock<Duration>
    /// Dates of events and metrics.
    public let wallClock: WallClock
    public let logger: Logger
    /// With the production clock, its reading at the start, in nanoseconds (`nil` with another clock): every event
    /// reads the time against it without going through the stopwatch (see ``ProductionClock``).
    private let productionOrigin: Int64?
    /// ``WallClock/origin``, read on every event.
    private let originDate: StreamDate
    /// With another clock, the wall clock's stopwatch reading, read on every event (the closure alone: reading it
    /// through ``wallClock`` copied the whole wall clock each time).
    private let reading: @Sendable () -> Duration

    /// Items waiting for the drainer, and whether a caller is draining (see ``submit(_:)``). `Locked` rather than
    /// the standard library's `Mutex`: ThreadSanitizer cannot see `Mutex`'s futex on Linux (see ``Locked``).
    private let queue = Locked(WorkQueue())
    private let store = ComponentStore()
    private let getters = Locked<[GetterKey: @Sendable () -> AttributeValue?]>([:])
    private let lastTrackerID = Atomic<Int>(0)

    /// Creates an instrument.
    /// - Parameters:
    ///   - hub: the business logic (``HubCore`` or ``HubCoreAds``); without one, events pass as emitted.
    ///   - metricalc: what computes metrics (``MetricalcCore``); without one, there are only events.
    ///   - backends: where events and metrics go.
    ///   - clock: the clock of durations, timers and dates (a test clock in tests).
    ///   - origin: the date when the instrument starts (now, by default).
    ///   - logger: where the instrument says what went wrong (a component that failed, an event dropped).
    public init(hub: sending (any Hub)? = nil, metricalc: sending (any Metricalc)? = nil,
                backends: sending [any Backend] = [], clock: any Clock<Duration> = ContinuousClock(),
                origin: StreamDate? = nil, logger: Logger = Logger(label: "playtrace.telemetry")) {
        self.clock = clock
        wallClock = origin.map { WallClock(clock: clock, origin: $0) } ?? WallClock(clock: clock)
        self.logger = logger
        productionOrigin = clock is ContinuousClock ? ProductionClock.nanoseconds() : nil
        originDate = wallClock.origin
        reading = wallClock.stopwatch.reading
        store.hub = hub
        store.metricalc = metricalc
        store.backends = backends
    }

    /// Time since the instrument started, on its clock.
    public var elapsed: Duration { .nanoseconds(elapsedNanoseconds) }

    /// ``elapsed`` in nanoseconds.
    private var elapsedNanoseconds: Int64 {
        if let productionOrigin { return ProductionClock.nanoseconds() &- productionOrigin }
        return ActionTimes.nanoseconds(reading())
    }

    // MARK: Components

    /// Adds a tracker; its identifier is what it emits with.
    @discardableResult
    public func addTracker(_ tracker: some TelemetryTracker) -> TrackerID {
        let id = TrackerID(rawValue: lastTrackerID.add(1, ordering: .relaxed).newValue)
        submit(.operation(Operation { store, _ in store.trackers[id] = TrackerEntry(tracker: tracker) }))
        return id
    }

    /// Removes a tracker: it gets ``InstrumentComponent/endOfService()`` and its getters are dropped.
    public func removeTracker(_ id: TrackerID) {
        getters.withLock { getters in getters = getters.filter { $0.key.tracker != id } }
        submit(.operation(Operation { store, _ in store.trackers.removeValue(forKey: id)?.tracker.endOfService() }))
    }

    /// Sets the hub; the one it replaces gets ``InstrumentComponent/endOfService()``.
    public func setHub(_ hub: sending (any Hub)?) {
        let transfer = Transfer(hub)
        submit(.operation(Operation { store, _ in
            store.hub?.endOfService()
            store.hub = transfer.take() ?? nil
        }))
    }

    /// Sets the metricalc; the one it replaces gets ``InstrumentComponent/endOfService()``.
    public func setMetricalc(_ metricalc: sending (any Metricalc)?) {
        let transfer = Transfer(metricalc)
        submit(.operation(Operation { store, _ in
            store.metricalc?.endOfService()
            store.metricalc = transfer.take() ?? nil
        }))
    }

    /// Sets the backends; those it replaces get ``InstrumentComponent/endOfService()``.
    public func setBackends(_ backends: sending [any Backend]) {
        let transfer = Transfer(backends)
        submit(.operation(Operation { store, _ in
            for backend in store.backends { backend.endOfService() }
            store.backends = transfer.take() ?? []
        }))
    }

    /// Adds a backend.
    public func addBackend(_ backend: sending any Backend) {
        let transfer = Transfer(backend)
        submit(.operation(Operation { store, _ in
            if let backend = transfer.take() { store.backends.append(backend) }
        }))
    }

    /// Calls ``InstrumentComponent/instrumentReady(_:)`` on every component (call it after changing them).
    public func ready() {
        submit(.operation(Operation { store, instrument in
            for entry in store.trackers.values { entry.tracker.instrumentReady(instrument) }
            store.hub?.instrumentReady(instrument)
            store.metricalc?.instrumentReady(instrument)
            for backend in store.backends { backend.instrumentReady(instrument) }
        }))
    }

    /// Ends the service of every component and removes them.
    public func shutdown() {
        getters.withLock { $0.removeAll() }
        submit(.operation(Operation { store, _ in
            for entry in store.trackers.values { entry.tracker.endOfService() }
            store.hub?.endOfService()
            store.metricalc?.endOfService()
            for backend in store.backends { backend.endOfService() }
            store.trackers.removeAll()
            store.hub = nil
            store.metricalc = nil
            store.backends = []
        }))
    }

    // MARK: Events

    /// Emits an action for a tracker: the event goes through the tracker, the hub, the metricalc and the backends.
    public func emit(_ action: Action, tracker: TrackerID, attributes: AttributeList? = nil) {
        submit(.event(action, tracker, attributes, elapsedNanoseconds))
    }

    // MARK: Getters

    /// Lets any component ask a tracker for an attribute's value (``callGetter(_:tracker:)``) without knowing it.
    public func registerGetter(_ attribute: Attribute, tracker: TrackerID,
                               getter: @escaping @Sendable () -> AttributeValue?) {
        getters.withLock { $0[GetterKey(attribute: attribute, tracker: tracker)] = getter }
    }

    /// Removes a getter.
    public func unregisterGetter(_ attribute: Attribute, tracker: TrackerID) {
        getters.withLock { $0[GetterKey(attribute: attribute, tracker: tracker)] = nil }
    }

    /// The value a tracker's getter gives for an attribute (`nil` without a getter, or when it has no value).
    public func callGetter(_ attribute: Attribute, tracker: TrackerID) -> AttributeValue? {
        let getter = getters.withLock { $0[GetterKey(attribute: attribute, tracker: tracker)] }
        return getter?()
    }

    /// Sets an attribute of an event from a tracker's getter, when it gives a value.
    public func useGetter(_ attribute: Attribute, on event: inout Event, tracker: TrackerID) {
        if let value = callGetter(attribute, tracker: tracker) { event[attribute] = value }
    }

    // MARK: The queue

    /// Queues an item, and performs it when no other caller is performing items: whoever takes the drainer role
    /// (``WorkQueue/isDraining``, under the queue's lock) performs the items queued, in order, one at a time, its
    /// own and those that other callers (or the components it calls) queue meanwhile, and gives the role back
    /// under the same lock once the queue is empty. Each caller's items keep their order.
    private func submit(_ item: WorkItem) {
        // The item is queued; a caller that takes the role takes what is queued with it, under the same lock.
        let taken: [WorkItem]? = queue.withLock { queue in
            queue.items.append(item)
            guard !queue.isDraining else { return nil }
            queue.isDraining = true
            var batch: [WorkItem] = []
            swap(&batch, &queue.spare)
            swap(&batch, &queue.items)
            return batch
        }
        guard var batch = taken else { return }
        // Performs the items taken, then what was queued meanwhile, until the queue is empty; then gives the role
        // back. The two arrays trade places at each swap and keep their storage: neither allocates in steady state.
        while true {
            for item in batch { perform(item) }
            batch.removeAll(keepingCapacity: true)
            let more = queue.withLock { queue in
                guard !queue.items.isEmpty else {
                    queue.isDraining = false
                    swap(&batch, &queue.spare)
                    return false
                }
                swap(&batch, &queue.items)
                return true
            }
            guard more else { return }
        }
    }

    private func perform(_ item: WorkItem) {
        switch item {
        case .operation(let operation):
            operation.body(store, self)
        case .event(let action, let trackerID, let attributes, let time):
            process(action, tracker: trackerID, attributes: attributes, time: time)
        }
    }

    private func process(_ action: Action, tracker trackerID: TrackerID, attributes: AttributeList?, time: Int64) {
        guard let entry = store.trackers[trackerID] else {
            logger.debug("event for an unknown tracker dropped", metadata: ["action": "\(action)", "tracker": "\(trackerID)"])
            return
        }
        process(action, entry: entry, tracker: trackerID, attributes: attributes, time: time)
    }

    private func process(_ action: Action, entry: TrackerEntry, tracker trackerID: TrackerID,
                         attributes: AttributeList?, time: Int64) {
        // The event's own attributes go in a list the instrument keeps between events, so that building them does
        // not allocate (a backend that keeps an event keeps its own copy).
        // The date from the nanoseconds, whole seconds and the fraction apart (as precise as the clock).
        let date = originDate + MediaTime(seconds: Double(time / 1_000_000_000) + Double(time % 1_000_000_000) * 1e-9)
        let usesScratch = attributes == nil
        var event = Event(action: action, date: date, timeNanoseconds: time, sender: trackerID,
                          attributes: attributes ?? store.takeScratch())
        defer { if usesScratch { store.returnScratch(&event.attributes) } }
        guard entry.tracker.initEvent(&event, instrument: self, tracker: trackerID) else { return }
        if let hub = store.hub {
            guard hub.processEvent(&event, state: &entry.state, tracker: trackerID, instrument: self) else { return }
        }
        var metrics = store.takeMetricScratch()
        defer { store.returnMetricScratch(&metrics) }
        store.metricalc?.processMetric(event, state: entry.state, tracker: trackerID, instrument: self, into: &metrics)
        let urgent = Self.isFlushing(event.action)
        for backend in store.backends {
            backend.send(event, metrics: metrics)
            if urgent { backend.flush() }
        }
    }

    /// Gives a hub of this module the state of another tracker, while it processes an event (the ads hub accounts
    /// the content tracker's play time when an ad begins).
    func withState<R>(of tracker: TrackerID, _ body: (inout TrackerState) -> R) -> R? {
        guard let entry = store.trackers[tracker] else { return nil }
        return body(&entry.state)
    }

    /// The identifiers of the trackers, for hubs of this module.
    var trackerIDs: [TrackerID] { store.trackers.ids }

    /// How many trackers are registered, for hubs of this module.
    var trackerCount: Int { store.trackers.count }

    /// Whether a tracker reports ads.
    func isAdsTracker(_ tracker: TrackerID) -> Bool { store.trackers[tracker]?.tracker.isAdsTracker ?? false }
}


/// The instrument's queue of work, under its mutex.
private struct WorkQueue {
    var items: [WorkItem] = []
    /// The drainer's array between drains (its storage kept).
    var spare: [WorkItem] = []
    var isDraining = false
}

private enum WorkItem: Sendable {
    case event(Action, TrackerID, AttributeList?, Int64)
    case operation(Operation)
}

private struct Operation: Sendable {
    let body: @Sendable (ComponentStore, Instrument) -> Void
    init(_ body: @escaping @Sendable (ComponentStore, Instrument) -> Void) { self.body = body }
}

private struct GetterKey: Hashable {
    let attribute: Attribute
    let tracker: TrackerID
}

/// A value handed over with `sending` (the caller gave it up), moved to the drainer, which takes it once.
private final class Transfer<Value>: Sendable {
    private let value: Mutex<Value?>
    init(_ value: sending Value) { self.value = Mutex(value) }
    /// The value, the first time; `nil` after.
    func take() -> sending Value? { value.withLock { $0.take() } }
}

/// The production clock (`ContinuousClock`) read directly, in nanoseconds: the instrument reads it for every event,
/// and going through `ContinuousClock.now` and `Duration` costs more than the reading itself. On Linux the
/// continuous clock is `CLOCK_BOOTTIME` (it keeps counting while the system sleeps); elsewhere the instant's
/// duration since a fixed reference is taken.
enum ProductionClock {
    #if canImport(Glibc)
    static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }
    #else
    private static let reference = ContinuousClock.now
    static func nanoseconds() -> Int64 { ActionTimes.nanoseconds(reference.duration(to: .now)) }
    #endif
}
