public import PlaytraceCore
public import PlaytracePlayer

/// What the ad tracking knows of the player (Harmonic's `playerObserver`): updated from the Player's properties
/// while the ad tracker is enabled. The interstitial fields arrive with HLS interstitials.
public struct AdPlayerObserver: Sendable, Hashable {
    /// The stream date at the playhead, when the stream carries program-date-time.
    public var currentDate: StreamDate?
    /// The playhead.
    public var playhead: MediaTime = .zero
    /// The primary content's playback state.
    public var primaryStatus: PlaybackState = .idle
    /// On-demand or live, once the stream is loaded.
    public var streamType: StreamType = .unknown
    /// The stream's target duration, when the engine knows it (how often live tracking metadata is fetched).
    public var targetDuration: MediaTime?
    /// Whether audio is muted.
    public var isMuted = false
    /// Whether playback waits for data.
    public var isBuffering = false
    /// The content's duration, for an on-demand stream.
    public var duration: MediaTime?

    public init() {}

    init(_ properties: TrackerProperties) {
        currentDate = properties.date
        playhead = properties.time
        primaryStatus = properties.playbackState
        streamType = properties.streamType
        targetDuration = properties.targetDuration
        isMuted = properties.isMuted
        isBuffering = properties.isBuffering
        duration = properties.streamType == .onDemand ? properties.seekableTimeRange.end : nil
    }
}
