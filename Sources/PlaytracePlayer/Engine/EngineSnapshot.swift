public import PlaytraceCore

/// Everything an engine knows about playback at one instant.
public struct EngineSnapshot: Sendable, Hashable {
    /// What the engine is doing.
    public var status: EngineStatus
    /// Whether the user wants playback (play was called and not paused since).
    public var wantsToPlay: Bool
    /// The playback rate asked for.
    public var rate: Double
    /// Position on the item's timeline.
    public var playhead: MediaTime
    /// Program-date-time at the playhead, when the stream has one.
    public var streamDate: StreamDate?
    /// The range buffered ahead of (and including) the playhead.
    public var loadedRange: MediaTimeRange
    /// The range one may seek in.
    public var seekableRange: MediaTimeRange
    /// The item's duration, for on-demand streams.
    public var duration: MediaTime?
    /// On-demand, live or DVR, once loaded.
    public var streamType: StreamType
    /// The media playlists' target duration, when the engine knows it: how often a live playlist changes (what
    /// clients that follow a live stream's side data, such as ad tracking metadata, poll at).
    public var targetDuration: MediaTime?
    /// Whether a seek is in progress.
    public var isSeeking: Bool
    /// The variants on offer.
    public var variants: [VariantInfo]
    /// The variant under the playhead.
    public var currentVariant: VariantInfo?
    /// The variant being downloaded.
    public var downloadingVariant: VariantInfo?
    /// The engine's throughput estimate, bits per second.
    public var estimatedThroughput: Double?
    /// Rebufferings so far, and their total duration (on the engine's clock).
    public var stallCount: Int
    /// The total time spent stalled, including a stall under way.
    public var stallDuration: Duration
    /// Variant switches under the playhead so far.
    public var variantSwitchCount: Int
    /// Body bytes received so far, and requests made.
    public var bytesReceived: Int
    /// Requests made so far, retries included.
    public var requestCount: Int
    /// Requests under way now.
    public var requestsInFlight: Int
    /// From the load (or the first play request, when later) to the first frame.
    public var startupTime: Duration?
    /// The media time actually played so far (seeks and skips leave holes).
    public var playedRanges: MediaTimeRangeSet
    /// The audio and subtitle renditions on offer.
    public var mediaOptions: [MediaOption]
    /// The rendition chosen for each kind of media (no entry: none).
    public var selectedMediaOptions: [MediaOption.Kind: MediaOption.ID]
    /// The audio volume, 0…1.
    public var volume: Double
    /// Whether audio is muted.
    public var isMuted: Bool
    /// The fatal error, when ``status`` is ``EngineStatus/failed``; otherwise the last non-fatal one.
    public var error: EngineError?
    /// What the engine played past without media: segments no variant could deliver (each reported as a warning)
    /// and segments the playlist marks as gaps.
    public var gaps: MediaTimeRangeSet
    /// The ad breaks the stream signals, as read so far, in order of their start (``SignalledAdBreak``).
    public var adBreaks: [SignalledAdBreak]
    /// The interstitial that plays now, if one does.
    public var interstitial: InterstitialStatus?
    /// The interstitials the stream schedules, as known so far, in order of their start (those a live window left
    /// behind are forgotten).
    public var interstitials: [InterstitialEvent]
    /// What was played of each interstitial, on its own timeline (``InterstitialStatus/time``), by its ID.
    public var interstitialPlayedRanges: [String: MediaTimeRangeSet]
    /// A live stream's newest media: the end of its playlist (hls.js's live edge), from which latency is measured;
    /// ``seekableRange`` ends the engine's hold-back before it. `nil` on demand, or when the engine cannot tell.
    public var liveEdge: MediaTime?
    /// How far the producer's wall clock is ahead of the stream's dates (``streamDate``), as the media says it
    /// (`prft` boxes in DASH segments): a producer date is the stream date plus this. `nil` when the media does not
    /// say.
    public var producerClockOffset: Duration?

    public init(
        status: EngineStatus = .idle, wantsToPlay: Bool = false, rate: Double = 1, playhead: MediaTime = .zero,
        streamDate: StreamDate? = nil, loadedRange: MediaTimeRange = .empty, seekableRange: MediaTimeRange = .empty,
        duration: MediaTime? = nil, streamType: StreamType = .unknown, targetDuration: MediaTime? = nil,
        isSeeking: Bool = false,
        variants: [VariantInfo] = [], currentVariant: VariantInfo? = nil, downloadingVariant: VariantInfo? = nil,
        estimatedThroughput: Double? = nil, stallCount: Int = 0, stallDuration: Duration = .zero,
        variantSwitchCount: Int = 0, bytesReceived: Int = 0, requestCount: Int = 0, requestsInFlight: Int = 0,
        startupTime: Duration? = nil, playedRanges: MediaTimeRangeSet = MediaTimeRangeSet(),
        mediaOptions: [MediaOption] = [], selectedMediaOptions: [MediaOption.Kind: MediaOption.ID] = [:],
        volume: Double = 1, isMuted: Bool = false, error: EngineError? = nil, gaps: MediaTimeRangeSet = MediaTimeRangeSet(),
        adBreaks: [SignalledAdBreak] = [], interstitial: InterstitialStatus? = nil, interstitials: [InterstitialEvent] = [],
        interstitialPlayedRanges: [String: MediaTimeRangeSet] = [:], liveEdge: MediaTime? = nil
    ) {
        self.liveEdge = liveEdge
        self.status = status
        self.wantsToPlay = wantsToPlay
        self.rate = rate
        self.playhead = playhead
        self.streamDate = streamDate
        self.loadedRange = loadedRange
        self.seekableRange = seekableRange
        self.duration = duration
        self.streamType = streamType
        self.targetDuration = targetDuration
        self.isSeeking = isSeeking
        self.variants = variants
        self.currentVariant = currentVariant
        self.downloadingVariant = downloadingVariant
        self.estimatedThroughput = estimatedThroughput
        self.stallCount = stallCount
        self.stallDuration = stallDuration
        self.variantSwitchCount = variantSwitchCount
        self.bytesReceived = bytesReceived
        self.requestCount = requestCount
        self.requestsInFlight = requestsInFlight
        self.startupTime = startupTime
        self.playedRanges = playedRanges
        self.mediaOptions = mediaOptions
        self.selectedMediaOptions = selectedMediaOptions
        self.volume = volume
        self.isMuted = isMuted
        self.error = error
        self.gaps = gaps
        self.adBreaks = adBreaks
        self.interstitial = interstitial
        self.interstitials = interstitials
        self.interstitialPlayedRanges = interstitialPlayedRanges
    }

    /// Seconds buffered ahead of the playhead.
    public var bufferedAhead: MediaTime { max(.zero, loadedRange.end - playhead) }

    /// How far the playhead is behind the live edge (hls.js's `latency`), and how far the engine aims to be (its
    /// hold-back: from the seekable range's end to the edge); `nil` when the stream is not live or the engine does
    /// not report its edge.
    public var liveLatency: (latency: MediaTime, target: MediaTime)? {
        guard let liveEdge, streamType == .live || streamType == .dvr else { return nil }
        return (max(.zero, liveEdge - playhead), max(.zero, liveEdge - seekableRange.end))
    }

    /// The option chosen for a kind of media.
    public func selectedMediaOption(for kind: MediaOption.Kind) -> MediaOption? {
        selectedMediaOptions[kind].flatMap { id in mediaOptions.first { $0.id == id } }
    }
}
