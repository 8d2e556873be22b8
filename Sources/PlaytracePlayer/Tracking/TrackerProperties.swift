public import PlaytraceCore

/// The player's state at one instant, as trackers receive it. It is a value captured when the call is made, so a
/// tracker can keep it without it changing underneath.
public struct TrackerProperties: Sendable, Hashable {
    /// The playhead.
    public var time: MediaTime
    /// The program-date-time at the playhead, when the stream has one.
    public var date: StreamDate?
    public var playbackState: PlaybackState
    /// The playback rate in effect (0 while paused or not progressing).
    public var rate: Double
    /// Whether a seek is under way.
    public var isSeeking: Bool
    /// Where the seek under way goes (the last one asked for), while one is.
    public var seekTime: MediaTime?
    /// Whether the player waits for data.
    public var isBuffering: Bool
    public var seekableTimeRange: MediaTimeRange
    public var loadedTimeRange: MediaTimeRange
    /// How far the buffer reaches, as a fraction of the seekable range (0…1).
    public var buffer: Double
    public var streamType: StreamType
    /// The media playlists' target duration, when the engine knows it.
    public var targetDuration: MediaTime?
    public var mediaType: MediaType
    /// The size of the video under the playhead, when known.
    public var presentationSize: PresentationSize?
    public var isMuted: Bool
    /// The volume, 0…1.
    public var volume: Double
    /// The rendition chosen for each kind of media.
    public var mediaSelection: [MediaOption.Kind: MediaOption]
    /// Quality-of-service figures of the session so far.
    public var metrics: PlaybackMetrics
    /// The interstitial that plays, if one does (the primary waits at its start meanwhile).
    public var interstitial: InterstitialStatus?
    /// The interstitials the stream schedules, in order of their start (``EngineSnapshot/interstitials``).
    public var interstitials: [InterstitialEvent]
    /// The ad breaks the stream signals, as read so far (``EngineSnapshot/adBreaks``).
    public var adBreaks: [SignalledAdBreak]
    /// How far the producer's wall clock is ahead of the stream's dates (``EngineSnapshot/producerClockOffset``).
    public var producerClockOffset: Duration?
    /// The player the properties were read from, for ``current()``.
    var source: PropertiesSource

    /// Whether the player is buffering or seeking.
    public var isBusy: Bool { isBuffering || isSeeking }

    /// What plays for a characteristic: the rendition the engine renders, or ``MediaSelectionOption/off``.
    /// - Parameter characteristic: audible or legible.
    public func currentMediaOption(for characteristic: MediaCharacteristic) -> MediaSelectionOption {
        mediaSelection[characteristic.kind].map { .on($0) } ?? .off
    }

    /// A fresh reading of the same player's properties (a heartbeat reads the position now, not at the last
    /// update); these properties when the player is gone.
    @MainActor
    public func current() -> TrackerProperties {
        source.player?.properties ?? self
    }

    public init(time: MediaTime = .zero, date: StreamDate? = nil, playbackState: PlaybackState = .idle,
                rate: Double = 0, isSeeking: Bool = false, seekTime: MediaTime? = nil, isBuffering: Bool = false,
                seekableTimeRange: MediaTimeRange = .empty, loadedTimeRange: MediaTimeRange = .empty,
                buffer: Double = 0, streamType: StreamType = .unknown, targetDuration: MediaTime? = nil, mediaType: MediaType = .unknown,
                presentationSize: PresentationSize? = nil, isMuted: Bool = false, volume: Double = 1,
                mediaSelection: [MediaOption.Kind: MediaOption] = [:], metrics: PlaybackMetrics = PlaybackMetrics(),
                interstitial: InterstitialStatus? = nil, interstitials: [InterstitialEvent] = [],
                adBreaks: [SignalledAdBreak] = []) {
        self.init(time: time, date: date, playbackState: playbackState, rate: rate, isSeeking: isSeeking,
                  seekTime: seekTime, isBuffering: isBuffering, seekableTimeRange: seekableTimeRange,
                  loadedTimeRange: loadedTimeRange, buffer: buffer, streamType: streamType,
                  targetDuration: targetDuration, mediaType: mediaType, presentationSize: presentationSize,
                  isMuted: isMuted, volume: volume, mediaSelection: mediaSelection, metrics: metrics,
                  interstitial: interstitial, interstitials: interstitials, adBreaks: adBreaks, source: PropertiesSource())
    }

    init(time: MediaTime, date: StreamDate?, playbackState: PlaybackState, rate: Double, isSeeking: Bool,
         seekTime: MediaTime?, isBuffering: Bool, seekableTimeRange: MediaTimeRange, loadedTimeRange: MediaTimeRange,
         buffer: Double, streamType: StreamType, targetDuration: MediaTime?, mediaType: MediaType,
         presentationSize: PresentationSize?, isMuted: Bool, volume: Double, mediaSelection: [MediaOption.Kind: MediaOption],
         metrics: PlaybackMetrics, interstitial: InterstitialStatus?, interstitials: [InterstitialEvent],
         adBreaks: [SignalledAdBreak], source: PropertiesSource) {
        self.time = time
        self.date = date
        self.playbackState = playbackState
        self.rate = rate
        self.isSeeking = isSeeking
        self.seekTime = seekTime
        self.isBuffering = isBuffering
        self.seekableTimeRange = seekableTimeRange
        self.loadedTimeRange = loadedTimeRange
        self.buffer = buffer
        self.streamType = streamType
        self.targetDuration = targetDuration
        self.mediaType = mediaType
        self.presentationSize = presentationSize
        self.isMuted = isMuted
        self.volume = volume
        self.mediaSelection = mediaSelection
        self.metrics = metrics
        self.interstitial = interstitial
        self.interstitials = interstitials
        self.adBreaks = adBreaks
        self.source = source
    }
}

/// The size of a video picture, in pixels.
public struct PresentationSize: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Quality-of-service figures of a playback session, from its engine.
public struct PlaybackMetrics: Sendable, Hashable {
    /// From the load (or the first play request, when later) to the first frame.
    public var startupTime: Duration?
    /// The variant under the playhead.
    public var variant: VariantInfo?
    /// The engine's throughput estimate, bits per second.
    public var estimatedThroughput: Double?
    public var stallCount: Int
    public var stallDuration: Duration
    public var variantSwitchCount: Int
    public var bytesReceived: Int
    public var requestCount: Int
    /// Media time played on the primary (seeks and skips leave holes).
    public var playedDuration: MediaTime

    public init(startupTime: Duration? = nil, variant: VariantInfo? = nil, estimatedThroughput: Double? = nil,
                stallCount: Int = 0, stallDuration: Duration = .zero, variantSwitchCount: Int = 0,
                bytesReceived: Int = 0, requestCount: Int = 0, playedDuration: MediaTime = .zero) {
        self.startupTime = startupTime
        self.variant = variant
        self.estimatedThroughput = estimatedThroughput
        self.stallCount = stallCount
        self.stallDuration = stallDuration
        self.variantSwitchCount = variantSwitchCount
        self.bytesReceived = bytesReceived
        self.requestCount = requestCount
        self.playedDuration = playedDuration
    }

    /// The figures of an engine snapshot.
    public init(_ snapshot: EngineSnapshot) {
        self.init(startupTime: snapshot.startupTime, variant: snapshot.currentVariant,
                  estimatedThroughput: snapshot.estimatedThroughput, stallCount: snapshot.stallCount,
                  stallDuration: snapshot.stallDuration, variantSwitchCount: snapshot.variantSwitchCount,
                  bytesReceived: snapshot.bytesReceived, requestCount: snapshot.requestCount,
                  playedDuration: snapshot.playedRanges.duration)
    }
}

/// The player whose properties a ``TrackerProperties`` value holds, weakly, outside its equality: two readings of
/// the same figures are equal whichever player they come from.
struct PropertiesSource: Sendable, Hashable {
    @MainActor
    final class Reference {
        weak var player: Player?
        init(_ player: Player?) { self.player = player }
    }

    let reference: Reference?

    init(_ reference: Reference? = nil) { self.reference = reference }

    @MainActor var player: Player? { reference?.player }

    static func == (lhs: PropertiesSource, rhs: PropertiesSource) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
