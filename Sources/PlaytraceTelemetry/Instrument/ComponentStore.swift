/// A tracker and the hub's state of its playback.
final class TrackerEntry {
    let tracker: any TelemetryTracker
    var state = TrackerState()

    init(tracker: any TelemetryTracker) { self.tracker = tracker }
}

/// The instrument's components.
///
/// Invariant (what makes the unchecked conformance safe): only the instrument's drainer touches the store, one work
/// item at a time. The drainer role is taken and given back under the instrument's queue lock, which orders every
/// access from one drainer thread to the next.
final class ComponentStore: @unchecked Sendable {
    var trackers = TrackerTable()
    var hub: (any Hub)?
    var metricalc: (any Metricalc)?
    var backends: [any Backend] = []

    /// The storage of events' own attributes, reused from event to event.
    private var scratch = AttributeList(capacity: Instrument.eventCapacity)

    /// The storage of an event's metrics, reused from event to event.
    private var metricScratch: [Metric] = []

    /// The metric list, empty, for an event.
    func takeMetricScratch() -> [Metric] {
        var list: [Metric] = []
        swap(&list, &metricScratch)
        return list
    }

    /// Takes an event's metric list back (emptied, its storage kept when nobody else holds it).
    func returnMetricScratch(_ metrics: inout [Metric]) {
        metrics.removeAll(keepingCapacity: true)
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
