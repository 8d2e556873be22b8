public import PlaytraceCore
public import PlaytracePlayer

/// What the ad tracking knows of the player (Harmonic's `playerObserver`): updated from the Player's properties
/// while the ad tracker is enabled. The interstitial fields follow HLS interstitials: the one that plays, and where
/// the last one began and stopped.
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
    /// Whether the stream has scheduled interstitials (unlike Harmonic's flag, it does not stop the beacons of
    /// stitched breaks).
    public var hasInterstitialEvents = false
    /// The playback state of the interstitial that plays (`idle` when none does).
    public var interstitialStatus: PlaybackState = .idle
    /// The date of the interstitial that plays, or of the last one.
    public var interstitialDate: StreamDate?
    /// Where on the ad timeline the last interstitial stopped: its date plus the interstitial time reached.
    public var interstitialStoppedDate: StreamDate?
    /// The primary's playhead where the interstitial that plays (or the last one) began.
    public var interstitialStartTime: MediaTime?
    /// The interstitial time at which the last interstitial stopped.
    public var interstitialStopTime: MediaTime?
    /// The duration of the interstitial that plays: its assets' durations, as far as known.
    public var currentInterstitialDuration: MediaTime?
    /// How far the producer's wall clock is ahead of the stream's dates, when the media says it (`prft` in DASH
    /// segments): how metadata times on the producer's clock are placed.
    public var producerClockOffset: Duration?

    public init() {}

    /// The observer for the player's properties, keeping from `previous` what the last interstitial left.
    init(_ properties: TrackerProperties, previous: AdPlayerObserver) {
        self.init(properties)
        hasInterstitialEvents = previous.hasInterstitialEvents || !properties.interstitials.isEmpty
            || properties.interstitial != nil
        interstitialDate = previous.interstitialDate
        interstitialStartTime = previous.interstitialStartTime
        interstitialStoppedDate = previous.interstitialStoppedDate
        interstitialStopTime = previous.interstitialStopTime
        if let interstitial = properties.interstitial {
            interstitialStatus = properties.playbackState
            interstitialDate = interstitial.event.startDate
            interstitialStartTime = interstitial.event.start
            currentInterstitialDuration = MediaTime(seconds: interstitial.assets.reduce(0) { $0 + ($1.duration?.seconds ?? 0) })
            interstitialStopTime = interstitial.time
            interstitialStoppedDate = interstitial.event.startDate.map { $0 + interstitial.time }
        }
    }

    init(_ properties: TrackerProperties) {
        currentDate = properties.date
        playhead = properties.time
        primaryStatus = properties.playbackState
        streamType = properties.streamType
        targetDuration = properties.targetDuration
        isMuted = properties.isMuted
        isBuffering = properties.isBuffering
        duration = properties.streamType == .onDemand ? properties.seekableTimeRange.end : nil
        producerClockOffset = properties.producerClockOffset
    }
}
