/// Creates a tracker for an item and maps the item's metadata to what the tracker needs.
///
/// Adapters are made from the tracker type, never by hand:
///
/// ```swift
/// CustomTracker.adapter(configuration: configuration) { (media: Media) in CustomTracker.Metadata(media) }
/// QoSTracker.adapter(configuration: endpoint, behavior: .mandatory)    // Void metadata
/// PositionLogger.adapter()                                              // Void configuration and metadata
/// ```
public struct TrackerAdapter<Metadata: AssetMetadata>: Sendable {
    let behavior: TrackingBehavior
    let make: @MainActor @Sendable () -> TrackerBox

    init<Tracker: PlayerItemTracker>(_ type: Tracker.Type, configuration: Tracker.Configuration,
                                     behavior: TrackingBehavior,
                                     mapper: @escaping @Sendable (Metadata) -> Tracker.Metadata) {
        self.behavior = behavior
        make = {
            TrackerBox(Tracker.self, configuration: configuration, behavior: behavior, mapper: mapper)
        }
    }
}

public extension PlayerItemTracker {
    /// An adapter for this tracker.
    /// - Parameters:
    ///   - configuration: handed to ``init(configuration:)``.
    ///   - behavior: whether the tracker obeys ``Player/isTrackingEnabled`` (optional trackers do).
    ///   - mapper: maps the item's metadata to the tracker's.
    static func adapter<M: AssetMetadata>(configuration: Configuration, behavior: TrackingBehavior = .optional,
                                          mapper: @escaping @Sendable (M) -> Metadata) -> TrackerAdapter<M> {
        TrackerAdapter(Self.self, configuration: configuration, behavior: behavior, mapper: mapper)
    }
}

public extension PlayerItemTracker where Configuration == Void {
    /// An adapter for a tracker without configuration.
    static func adapter<M: AssetMetadata>(behavior: TrackingBehavior = .optional,
                                          mapper: @escaping @Sendable (M) -> Metadata) -> TrackerAdapter<M> {
        TrackerAdapter(Self.self, configuration: (), behavior: behavior, mapper: mapper)
    }
}

public extension PlayerItemTracker where Metadata == Void {
    /// An adapter for a tracker without metadata.
    static func adapter<M: AssetMetadata>(configuration: Configuration,
                                          behavior: TrackingBehavior = .optional) -> TrackerAdapter<M> {
        TrackerAdapter(Self.self, configuration: configuration, behavior: behavior) { _ in () }
    }
}

public extension PlayerItemTracker where Configuration == Void, Metadata == Void {
    /// An adapter for a tracker without configuration or metadata.
    static func adapter<M: AssetMetadata>(behavior: TrackingBehavior = .optional) -> TrackerAdapter<M> {
        TrackerAdapter(Self.self, configuration: (), behavior: behavior) { _ in () }
    }
}
