/// One tracker of an item with its behaviour, erased of its types, and the rules of its life cycle: it is enabled
/// and disabled in turn, and receives properties and metric events only while enabled.
@MainActor
final class TrackerBox {
    let behavior: TrackingBehavior
    let tracker: any PlayerItemTracker
    private let deliverMetadata: @MainActor (any AssetMetadata) -> Void
    private(set) var isEnabled = false

    init<Tracker: PlayerItemTracker, Metadata: AssetMetadata>(
        _ type: Tracker.Type, configuration: Tracker.Configuration, behavior: TrackingBehavior,
        mapper: @escaping @Sendable (Metadata) -> Tracker.Metadata
    ) {
        let tracker = Tracker(configuration: configuration)
        self.tracker = tracker
        self.behavior = behavior
        deliverMetadata = { metadata in
            // An item only ever hands its own metadata type to its adapters' trackers.
            guard let metadata = metadata as? Metadata else { return }
            tracker.updateMetadata(to: mapper(metadata))
        }
    }

    func enable(for player: Player) {
        guard !isEnabled else { return }
        isEnabled = true
        tracker.enable(for: player)
    }

    func updateMetadata(_ metadata: any AssetMetadata) { deliverMetadata(metadata) }

    func updateProperties(_ properties: TrackerProperties) {
        guard isEnabled else { return }
        tracker.updateProperties(to: properties)
    }

    func updateProgress(_ progress: PlaybackProgress) {
        guard isEnabled else { return }
        tracker.updateProgress(progress)
    }

    /// Whether the tracker, enabled, needs the engine's progress reports.
    var needsProgress: Bool { isEnabled && tracker.observesProgress }

    /// The tracker's progress boundaries, while it is enabled and observes progress.
    var progressBoundaries: [PlaybackBoundary] { needsProgress ? tracker.progressBoundaries : [] }

    func updateMetricEvents(_ events: [MetricEvent]) {
        guard isEnabled else { return }
        tracker.updateMetricEvents(to: events)
    }

    func disable(with properties: TrackerProperties) {
        guard isEnabled else { return }
        isEnabled = false
        tracker.disable(with: properties)
    }
}
