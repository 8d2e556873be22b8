/// Something that follows an item while it plays: analytics, QoS, a watch history.
///
/// A tracker is never created by the app: its ``TrackerAdapter``, given to the item, creates it when the item is
/// created, and it lives as long as the item. Its life cycle, always in this order:
/// 1. ``init(configuration:)`` when the item is created;
/// 2. ``updateMetadata(to:)`` whenever the item's metadata changes — also while disabled (the next item's
///    metadata arrives while it is preloaded);
/// 3. ``enable(for:)`` when a playback session of its item begins: the item became current, was replayed or
///    repeated, or tracking was switched back on;
/// 4. ``updateProperties(to:)`` often while enabled (keep it cheap), and ``updateMetricEvents(to:)`` with the
///    session's metric events so far whenever one is added;
/// 5. ``disable(with:)`` when the session ends (the item stops being current, ends and is replayed, fails, or
///    tracking is switched off), with the properties at that instant so that the final position can be read;
/// 6. `deinit` when the item is discarded.
///
/// Only the current item's trackers receive properties and metric events.
///
/// ```swift
/// final class HistoryTracker: PlayerItemTracker {
///     struct Metadata: Sendable { let id: String }
///     private var id: String?
///     init(configuration: Void) {}
///     func updateMetadata(to metadata: Metadata) { id = metadata.id }
///     func enable(for player: Player) {}
///     func updateProperties(to properties: TrackerProperties) {}
///     func disable(with properties: TrackerProperties) { save(id, properties.time) }
/// }
/// let item = PlayerItem.simple(url: url, metadata: media, trackerAdapters: [
///     HistoryTracker.adapter { media in HistoryTracker.Metadata(id: media.id) }
/// ])
/// ```
@MainActor
public protocol PlayerItemTracker: AnyObject {
    /// What the tracker needs to be set up (`Void` when nothing).
    associatedtype Configuration: Sendable
    /// What the tracker needs to know about the item (`Void` when nothing), mapped from the item's metadata by
    /// the adapter.
    associatedtype Metadata: Sendable

    /// Creates the tracker, when its item is created.
    init(configuration: Configuration)
    /// A playback session of the item begins.
    func enable(for player: Player)
    /// The item's metadata changed.
    func updateMetadata(to metadata: Metadata)
    /// The player's properties changed (only while enabled).
    func updateProperties(to properties: TrackerProperties)
    /// The session's metric events so far, oldest first (only while enabled).
    func updateMetricEvents(to events: [MetricEvent])
    /// Each continuous movement of the playhead, in order (only while enabled, and only for a tracker whose
    /// ``observesProgress`` is true: the engine reports progress only when a tracker asks).
    func updateProgress(_ progress: PlaybackProgress)
    /// Whether the tracker needs every movement of the playhead (``updateProgress(_:)``), as an ad tracker does to
    /// see each crossing of a beacon's time; `false` by default.
    var observesProgress: Bool { get }
    /// The points at which the tracker needs a progress report to end exactly (empty by default): the engine then
    /// reports the crossing of each when it happens. A tracker whose points change calls
    /// ``Player/updateProgressBoundaries()``.
    var progressBoundaries: [PlaybackBoundary] { get }
    /// The playback session ends.
    func disable(with properties: TrackerProperties)
    /// Identifies the tracker's current session with its service, when it has one.
    var sessionIdentifier: String? { get }
}

public extension PlayerItemTracker {
    func updateMetricEvents(to events: [MetricEvent]) {}
    func updateProgress(_ progress: PlaybackProgress) {}
    var observesProgress: Bool { false }
    var progressBoundaries: [PlaybackBoundary] { [] }
    var sessionIdentifier: String? { nil }
}
