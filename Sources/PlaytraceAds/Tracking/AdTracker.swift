public import PlaytracePlayer

/// The ad tracker of a Player item: it follows the item's life cycle and hands every movement of the playhead to
/// its ``AdBeaconingSession``, with any engine that reports progress.
///
/// ```swift
/// let session = AdBeaconingSession(outbox: outbox)
/// let item = PlayerItem.simple(url: manifestURL, trackerAdapters: [AdTracker.adapter(configuration: session)])
/// ```
public final class AdTracker: PlayerItemTracker {
    private let session: AdBeaconingSession
    private var isStarted = true
    private var lastState: PlaybackState?
    private var lastMuted: Bool?
    private var lastBuffering: Bool?
    private var seenMetricEvents = 0

    public init(configuration: AdBeaconingSession) { session = configuration }

    public func enable(for player: Player) {
        isStarted = true
        lastState = nil
        lastMuted = nil
        lastBuffering = nil
        seenMetricEvents = 0
        session.boundariesChanged = { [weak player] in player?.updateProgressBoundaries() }
    }

    public func updateMetadata(to metadata: Void) {}

    /// A playback failure while an ad plays is the ad's error too (``AdPlaybackEvent/adFailed(_:_:)``); a skipped
    /// interstitial's ad reports `skip`; a VAST ad whose asset failed reports error 405; what did not play out gets
    /// its fate (``AdBeaconingSession/fates``).
    public func updateMetricEvents(to events: [MetricEvent]) {
        defer { seenMetricEvents = events.count }
        guard isStarted, events.count > seenMetricEvents else { return }
        for event in events[seenMetricEvents...] {
            switch event.kind {
            case .failure(let error): session.playbackFailed("\(error)")
            case .interstitialAssetFailed(let interstitial, let index, let reason):
                session.interstitialAssetFailed(interstitial, index: index, reason: reason)
            case .interstitialEnded(let interstitial, let outcome): session.interstitialEnded(interstitial, outcome: outcome)
            default: break
            }
        }
    }
    /// Follows the player's state: a pause, a resume, a mute or an unmute while an ad plays is reported once per
    /// change (every event of that type in the ad).
    public func updateProperties(to properties: TrackerProperties) {
        session.updatePlayer(properties)
        defer {
            lastState = properties.playbackState
            lastMuted = properties.isMuted
            lastBuffering = properties.isBuffering
        }
        guard isStarted else { return }
        if let lastBuffering, lastBuffering != properties.isBuffering { session.bufferingChanged(properties.isBuffering) }
        if let lastMuted, lastMuted != properties.isMuted { session.playerDid(properties.isMuted ? .mute : .unmute) }
        switch (lastState, properties.playbackState) {
        case (.playing, .paused): session.playerDid(.pause)
        case (.paused, .playing): session.playerDid(.resume)
        default: break
        }
    }

    public func disable(with properties: TrackerProperties) {
        isStarted = false
        session.boundariesChanged = nil
    }

    /// Starts handing the playhead's movements to the session again (after ``stop()``).
    public func start() { isStarted = true }
    /// Stops handing them: nothing fires until ``start()``; what was fired is still delivered.
    public func stop() { isStarted = false }

    public var observesProgress: Bool { true }
    /// The session's events still to fire: the engine reports each crossing when it happens.
    public var progressBoundaries: [PlaybackBoundary] { session.progressBoundaries }

    public func updateProgress(_ progress: PlaybackProgress) {
        guard isStarted else { return }
        session.observe(progress)
    }
}
