/// A tracker and the hub's state of its playback.
final class TrackerEntry {
    let tracker: any TelemetryTracker
    /// Only the instrument's drainer touches it, one work item at a time (see ``ComponentStore``): no access can
    /// overlap, so the run-time exclusivity check is left out of this hot path.
    @exclusivity(unchecked) var state = TrackerState()

    init(tracker: any TelemetryTracker) { self.tracker = tracker }
}

/// Holds a component, so that the hot path can lend it (`Unmanaged`) instead of retaining it for each call.
final class ComponentBox<Component> {
    let component: Component
    init(_ component: Component) { self.component = component }
}

/// The components. Only the instrument's drainer touches them, one work item at a time; the queue's mutex hands
/// the drainer role from thread to thread, which orders every access (that is what makes the unchecked conformance
/// safe).
///
/// For the same reason no two accesses to its properties can overlap, so the run-time exclusivity checks (which
/// cost more than the rest of an event's dispatch) are left out.
///
/// Every event calls the hub, the metricalc and each backend: it reaches them through ``lentHub``,
/// ``lentMetricalc`` and ``lentBackends``, which refer to them without counting references. The boxes they refer
/// to are owned here, replaced only by setting ``hub``, ``metricalc`` and ``backends``, which a work item does
/// between events, so a lent reference never outlives its box.
final class ComponentStore: @unchecked Sendable {
    @exclusivity(unchecked) var trackers = TrackerTable()
    @exclusivity(unchecked) var hub: (any Hub)? {
        didSet {
            hubBox = hub.map(ComponentBox.init)
            lentHub = hubBox.map(Unmanaged.passUnretained)
        }
    }
    @exclusivity(unchecked) var metricalc: (any Metricalc)? {
        didSet {
            metricalcBox = metricalc.map(ComponentBox.init)
            lentMetricalc = metricalcBox.map(Unmanaged.passUnretained)
        }
    }
    @exclusivity(unchecked) var backends: [any Backend] = [] {
        didSet {
            backendBoxes = backends.map(ComponentBox.init)
            lentBackends.deallocate()
            lentBackends = .allocate(capacity: backendBoxes.count)
            _ = lentBackends.initialize(from: backendBoxes.map(Unmanaged.passUnretained))
        }
    }

    @exclusivity(unchecked) private var hubBox: ComponentBox<any Hub>?
    @exclusivity(unchecked) private var metricalcBox: ComponentBox<any Metricalc>?
    @exclusivity(unchecked) private var backendBoxes: [ComponentBox<any Backend>] = []
    @exclusivity(unchecked) private(set) var lentHub: Unmanaged<ComponentBox<any Hub>>?
    @exclusivity(unchecked) private(set) var lentMetricalc: Unmanaged<ComponentBox<any Metricalc>>?
    /// (Plain memory: reading it counts no reference, as reading an array would.)
    @exclusivity(unchecked) private(set) var lentBackends = UnsafeMutableBufferPointer<Unmanaged<ComponentBox<any Backend>>>
        .allocate(capacity: 0)

    /// The storage of events' own attributes, reused from event to event.
    @exclusivity(unchecked) private var scratch = AttributeList(capacity: Instrument.eventCapacity)

    /// The storage of an event's metrics, reused from event to event.
    @exclusivity(unchecked) private var metricScratch: [Metric] = []

    deinit { lentBackends.deallocate() }

    /// The metric list, empty, for an event.
    func takeMetricScratch() -> [Metric] {
        var list: [Metric] = []
        swap(&list, &metricScratch)
        return list
    }

    /// Takes an event's metric list back (emptied, its storage kept when nobody else holds it).
    func returnMetricScratch(_ metrics: inout [Metric]) {
        // One at a time: `removeAll(keepingCapacity:)` goes through the general range replacement, which costs
        // more than the few metrics an event makes.
        while !metrics.isEmpty { metrics.removeLast() }
        swap(&metrics, &metricScratch)
    }

    /// The scratch list, empty, for an event.
    func takeScratch() -> AttributeList {
        var list = AttributeList()
        swap(&list, &scratch)
        return list
    }

    /// Takes an event's attributes back as the scratch list (emptied, its storage kept when nobody else holds it).
    func returnScratch(_ attributes: inout AttributeList) {
        attributes.removeAll(keepingCapacity: true)
        swap(&attributes, &scratch)
    }
}
