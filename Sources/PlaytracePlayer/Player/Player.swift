import Foundation
public import Observation
public import PlaytraceCore

/// Plays a list of items over a ``PlaybackEngine``, tracks them, and publishes what a user interface shows.
///
/// The player holds an ordered playlist edited by item reference, loads each item's asset and metadata when it is
/// about to play, preloads the next item, never plays blocked ranges, and drives the trackers of its current item.
/// It is engine-agnostic: every item session gets a new engine from the factory given at creation.
///
/// ```swift
/// let player = Player(items: [.simple(url: first), .simple(url: second)]) {
///     HeadlessEngine(clock: clock, transport: transport)
/// }
/// player.play()
/// player.seek(.at(MediaTime(seconds: 30)))
/// player.advanceToNextItem()
/// ```
///
/// Periodic time updates are not observable (that would refresh a whole user interface ten times a second): read
/// ``time`` when needed, or use a ``ProgressTracker``.
@MainActor
@Observable
public final class Player {
    /// What the player does when an item plays to its end.
    public enum ActionAtItemEnd: String, Sendable, Hashable {
        /// Go on with the next item (or stay at the end of the last one).
        case advance
        /// Stay at the end of the item, paused.
        case pause
    }

    /// How the player behaves.
    public struct Configuration: Sendable {
        /// Whether the player moves on to the next item when the current one fails (the failed item keeps its
        /// ``PlayerItem/error``). Off by default, as in Pillarbox: the player stays on the failed item so that its
        /// error (a geoblocking message, say) can be shown; a tool that checks every stream of a list turns it on.
        public var advancesAfterFailure = false
        /// How ``returnToPreviousItem()`` behaves: by default, more than 3 s into on-demand content it restarts the
        /// item instead of going back.
        public var navigationMode = NavigationMode.smart(interval: .seconds(3))
        /// How far ``skipForward(completion:)`` goes.
        public var forwardSkipInterval: Duration = .seconds(10)
        /// How far ``skipBackward(completion:)`` goes.
        public var backwardSkipInterval: Duration = .seconds(10)
        /// Whether the next item is loaded ahead, so that the transition to it is quick.
        public var preloadsNextItem = true
        /// How often the player reads its engine's state while nothing happens (buffer, time-dependent
        /// properties, and the properties trackers receive).
        public var refreshInterval: Duration = .seconds(1)
        /// How many samples ``Player/metrics()`` keeps for the current item (one per refresh: an hour by default).
        public var metricsHistoryLimit = 3600
        /// How close to the live edge a DVR stream counts as being at it (5 s, as Pillarbox: there, playback
        /// cannot go faster than 1).
        public var liveEdgeTolerance = MediaTime(seconds: 5)

        /// The default configuration.
        public init() {}
    }

    /// Makes an engine for an item session.
    public typealias EngineFactory = @MainActor () -> any PlaybackEngine

    public let configuration: Configuration

    /// The playlist.
    var queue: ItemQueue<PlayerItem>
    /// What happens at the end of an item or of the list.
    public var repeatMode = RepeatMode.off {
        didSet { preloadNextItem() }
    }
    /// Whether optional trackers run (mandatory ones always do).
    public var isTrackingEnabled = true {
        didSet { if isTrackingEnabled != oldValue { trackingEnablementChanged() } }
    }

    /// What the player is doing. At the end of the playlist it stays `.ended`, with no current item, until something
    /// else plays.
    public internal(set) var playbackState = PlaybackState.idle
    /// Whether the last item played to its end and the player advanced past it (no current item then).
    @ObservationIgnored var hasPlayedPlaylist = false
    /// Whether the player waits for data (loading, or stalled).
    public internal(set) var isBuffering = false
    /// Whether a seek is under way.
    public internal(set) var isSeeking = false
    /// The kind of stream of the current item.
    public internal(set) var streamType = StreamType.unknown
    /// The current item's error, when it failed.
    public internal(set) var error: (any Error)?
    /// The current item's standard metadata.
    public internal(set) var metadata = PlayerMetadata.empty
    /// The current engine's last snapshot. It changes at every engine event (each HTTP request among them): a view
    /// that reads it is refreshed that often. Views read the properties split out of it, which change only when
    /// their value does: ``seekableTimeRange``, ``loadedTimeRange``, ``buffer``, ``currentInterstitial``, the media
    /// selection, ``mediaType``.
    public internal(set) var engineSnapshot = EngineSnapshot()
    /// The range one may seek in.
    public internal(set) var seekableTimeRange = MediaTimeRange.empty
    /// The range buffered at the playhead. It is updated when its end moves (a segment arrives) or the playhead
    /// leaves it (a seek), so its start may lag behind the playhead by a few seconds: a view that draws it is not
    /// refreshed at every tick.
    public internal(set) var loadedTimeRange = MediaTimeRange.empty
    /// How far the buffer reaches, as a fraction of the seekable range (0…1).
    public internal(set) var buffer = 0.0
    /// The interstitial that plays now, if one does: its event, assets, the asset that plays and the time played.
    public internal(set) var currentInterstitial: InterstitialStatus?
    /// Whether the current item is audio or video, from what its variants declare (``MediaType/unknown`` until they
    /// are known).
    public internal(set) var mediaType = MediaType.unknown
    /// The renditions of the current item and the one the engine renders for each kind (what the media selection
    /// reads: it changes when they do, not at every engine event).
    var renditions = Renditions()
    /// The playback speed in effect: the desired one (``playbackSpeed``), limited by the stream (see
    /// ``playbackSpeedRange``).
    public internal(set) var effectivePlaybackSpeed = 1.0
    /// What happens when an item plays to its end (``ActionAtItemEnd/advance`` by default); it may change at any
    /// time, for the item that plays as well.
    public var actionAtItemEnd = ActionAtItemEnd.advance

    /// Whether audio is muted. Trackers are told at once (an ad tracker reports each mute and unmute).
    public var isMuted = false {
        didSet {
            guard isMuted != oldValue else { return }
            sendVolume()
            notifyProperties()
        }
    }
    /// Limits on the variants adaptive bit rate may choose (a data-saving mode, a cap for a small screen).
    public var variantLimits = VariantLimits.none {
        didSet {
            let limits = variantLimits
            for session in [session, preloadedSession].compactMap(\.self) {
                session.send { await $0.setVariantLimits(limits) }
            }
        }
    }
    /// The audio volume, 0…1.
    public var volume = 1.0 {
        didSet {
            let clamped = volume.isFinite ? min(max(volume, 0), 1) : 1
            if clamped != volume { volume = clamped } else if volume != oldValue { sendVolume() }
        }
    }

    @ObservationIgnored let stopwatch: Stopwatch
    /// This player, weakly, for ``TrackerProperties/current()``.
    @ObservationIgnored private(set) lazy var propertiesReference = PropertiesSource.Reference(self)
    @ObservationIgnored let makeEngine: EngineFactory
    @ObservationIgnored var session: ItemSession?
    @ObservationIgnored var preloadedSession: ItemSession?
    /// Whether the user wants playback.
    @ObservationIgnored var wantsToPlay = false
    @ObservationIgnored var desiredPlaybackSpeed = 1.0
    /// The items that failed one after the other since something last played (the player does not go round a
    /// list of failing items forever).
    @ObservationIgnored var consecutiveFailures: [ObjectIdentifier] = []
    /// Completions of the seeks sent to the engine, oldest first.
    @ObservationIgnored var seeksInFlight: [(target: MediaTime, completion: @MainActor (Bool) -> Void)] = []
    /// The seek that waits for the one in flight (smooth seeking keeps only the last one).
    @ObservationIgnored var pendingSeek: (position: SeekPosition, completion: @MainActor (Bool) -> Void)?
    /// What the viewer asked for, per characteristic (kept from item to item).
    var mediaSelectionSettings: [MediaCharacteristic: MediaSelectionSetting] = [:]
    /// The consumers of ``metricEventUpdates()``.
    @ObservationIgnored var metricEventSubscribers: [UUID: AsyncStream<[MetricEvent]>.Continuation] = [:]
    /// The list the metric-event subscribers were last told: the same list is not told twice in a row (Pillarbox
    /// removes consecutive duplicates).
    @ObservationIgnored var publishedMetricEvents: [MetricEvent]?
    /// Where items start the next time they play (``resume(_:in:)``), by item.
    @ObservationIgnored var resumePositions: [UUID: SeekPosition] = [:]

    /// Creates a player.
    /// - Parameters:
    ///   - items: the playlist (duplicates are dropped); the first item is current. Empty by default.
    ///   - configuration: how the player behaves.
    ///   - clock: the clock of every timing the player measures (a test clock in tests).
    ///   - engine: makes the engine of each item session.
    public init(items: [PlayerItem] = [], configuration: Configuration = Configuration(),
                clock: any Clock<Duration> = ContinuousClock(), engine: @escaping EngineFactory) {
        self.configuration = configuration
        stopwatch = Stopwatch(clock: clock)
        makeEngine = engine
        queue = ItemQueue()
        setItems(items)
    }

    /// Creates a player of one item.
    public convenience init(item: PlayerItem, configuration: Configuration = Configuration(),
                            clock: any Clock<Duration> = ContinuousClock(), engine: @escaping EngineFactory) {
        self.init(items: [item], configuration: configuration, clock: clock, engine: engine)
    }

    isolated deinit {
        for continuation in metricEventSubscribers.values { continuation.finish() }
        if let session { endTracking(of: session) }
        session?.close()
        preloadedSession?.close()
        if NowPlayingCenter.shared.activePlayer === self { NowPlayingCenter.shared.activePlayer = nil }
    }

    /// The playhead, now.
    public var time: MediaTime {
        session?.playhead(now: stopwatch.elapsed) ?? .zero
    }

    /// The program-date-time at the playhead, now, when the stream has one.
    public var date: StreamDate? {
        guard let session, let date = session.snapshot.streamDate else { return nil }
        return date + (time - session.snapshot.playhead)
    }

    /// Whether the player is buffering or seeking.
    public var isBusy: Bool { isBuffering || isSeeking }

    /// The chapter at the playhead.
    public var currentChapter: Chapter? { metadata.chapter(at: time) }

    /// The state now, as trackers receive it.
    public var properties: TrackerProperties {
        let snapshot = engineSnapshot
        var selection: [MediaOption.Kind: MediaOption] = [:]
        for kind in MediaOption.Kind.allCases {
            if let option = snapshot.selectedMediaOption(for: kind) { selection[kind] = option }
        }
        let variant = snapshot.currentVariant
        let size = variant.flatMap { variant in
            variant.width.flatMap { width in variant.height.map { PresentationSize(width: width, height: $0) } }
        }
        var properties = TrackerProperties(
            time: time, date: date, playbackState: playbackState,
            rate: snapshot.status == .playing ? snapshot.rate : 0, isSeeking: isSeeking, seekTime: seekTarget,
            isBuffering: isBuffering,
            seekableTimeRange: snapshot.seekableRange, loadedTimeRange: snapshot.loadedRange, buffer: buffer,
            streamType: streamType, targetDuration: snapshot.targetDuration, mediaType: session?.mediaType ?? .unknown, presentationSize: size,
            isMuted: isMuted, volume: volume, mediaSelection: selection, metrics: PlaybackMetrics(snapshot),
            interstitial: snapshot.interstitial, interstitials: snapshot.interstitials, adBreaks: snapshot.adBreaks,
            source: PropertiesSource(propertiesReference))
        properties.producerClockOffset = snapshot.producerClockOffset
        return properties
    }

    /// Where the seek under way goes: the one waiting, else the last one sent.
    var seekTarget: MediaTime? {
        pendingSeek?.position.time ?? seeksInFlight.last?.target
    }

    /// Whether the player is idle: no command waits for its engines and no event is being handled. Tests use it to
    /// know when the player has caught up with its engines.
    public var hasPendingWork: Bool {
        (session?.pendingWork ?? 0) > 0 || (preloadedSession?.pendingWork ?? 0) > 0
    }

    /// Engine events handled so far in the current and preloaded sessions (tests use it to see the player settle).
    public var handledEventCount: Int {
        (session?.handledEvents ?? 0) + (preloadedSession?.handledEvents ?? 0)
    }

    /// The engines of the current and the preloaded session.
    public var engines: [any PlaybackEngine] {
        [session?.engine, preloadedSession?.engine].compactMap { $0 }
    }

    func sendVolume() {
        let volume = self.volume
        let isMuted = self.isMuted
        for session in [session, preloadedSession].compactMap(\.self) {
            session.send { await $0.setVolume(volume, isMuted: isMuted) }
        }
    }
}

/// An item's renditions and the ones chosen, as the media selection reads them.
struct Renditions: Hashable {
    var options: [MediaOption] = []
    var selected: [MediaOption.Kind: MediaOption.ID] = [:]

    init() {}

    init(_ snapshot: EngineSnapshot) {
        options = snapshot.mediaOptions
        selected = snapshot.selectedMediaOptions
    }

    func selectedOption(for kind: MediaOption.Kind) -> MediaOption? {
        selected[kind].flatMap { id in options.first { $0.id == id } }
    }
}
