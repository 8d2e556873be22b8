import Foundation
public import Logging
public import PlaytraceCore
public import PlaytraceNetwork
public import PlaytracePlayer
import PlaytraceHLS
import PlaytraceHLSPlayback
import PlaytraceDASHPlayback

/// A real HLS client without a decoder.
///
/// It fetches the multivariant playlist, the media playlists and the segments over HTTP (real bytes, through an
/// `HTTPTransport`), keeps a forward buffer, advances the playhead at the playback rate on the injected clock,
/// stalls when the buffer runs dry and recovers, adapts the bit rate from measured throughput, plays on-demand,
/// live (three target durations from the edge, following the sliding window) and DVR streams, seeks, maps the
/// playhead to program-date-time, retries failed requests before failing, and reports every request.
///
/// ```swift
/// let clock = ContinuousClock()
/// let engine = HeadlessEngine(clock: clock, transport: AsyncHTTPClientTransport(clock: clock))
/// let events = engine.events()
/// await engine.load(EngineSource(url: URL(string: "http://127.0.0.1:8080/vod/master.m3u8")!))
/// await engine.play()
/// for await event in events { if case .ended = event { break } }
/// ```
public actor HeadlessEngine: PlaybackEngine {
    /// How the engine buffers, adapts and retries.
    public struct Configuration: Sendable {
        /// How much media to buffer ahead of the playhead.
        public var forwardBufferDuration: MediaTime = 30
        /// How much media must be buffered before playback starts, resumes after a stall, or completes a seek.
        public var startupBufferDuration: MediaTime = 2
        /// How often the playhead advances.
        public var tickInterval: Duration = .milliseconds(100)
        /// Retries of a failed request when no other variant can take over.
        public var maximumRetries: Int = 3
        /// Wait before the first retry; doubled for each further one.
        public var retryDelay: Duration = .milliseconds(500)
        /// Deadline of requests made before the target duration is known, and the longest a playlist request
        /// may take.
        public var requestTimeout: Duration = .seconds(20)
        /// A media playlist request's deadline, in target durations (at least ``minimumPlaylistTimeout``, at most
        /// ``requestTimeout``): a live playlist that does not arrive within two target durations is late enough
        /// to try another variant.
        public var playlistTimeoutTargetDurations: Double = 2
        /// The shortest deadline of a media playlist request.
        public var minimumPlaylistTimeout: Duration = .seconds(3)
        /// A segment request's deadline, in target durations (at least ``requestTimeout``): long enough for a
        /// slow but moving download, short enough that a hung one is given up while the buffer lasts.
        public var segmentTimeoutTargetDurations: Double = 6
        /// How long a variant whose segment or playlist could not be loaded is left alone.
        public var variantPenalty: Duration = .seconds(60)
        /// Segments in a row that no variant could deliver before playback fails: one or two are played past as
        /// gaps (reported as warnings); more means nothing playable remains.
        public var maximumConsecutiveGaps: Int = 3
        /// Whether interstitials (`CLASS="com.apple.hls.interstitial"` date ranges) are played.
        public var playsInterstitials = true
        /// How far ahead of an interstitial (on the primary's timeline) its asset list and first asset are downloaded.
        public var interstitialPreloadLead: MediaTime = 10
        /// Reads asset lists that are not the HLS JSON (an ad server's VAST answer); `nil`: JSON only.
        public var assetListReader: (any InterstitialAssetListReader)?
        /// Live playback starts this many target durations from the live edge.
        public var liveEdgeTargetDurations: Double = 3
        /// A live window at least this long makes the stream DVR.
        public var minimumDVRWindow: MediaTime = 60
        /// The most segments kept of a media playlist that is not a VOD one: its last ones, the window the viewer can
        /// seek in (20,000 segments: 11 hours of 2-second segments, 33 of 6-second ones). A live playlist of weeks of
        /// history (the parse caps allow a million segments) then costs what this window costs at each refresh
        /// (`PlaylistParser.Options.keepingLastSegments`); `nil` keeps every segment.
        public var maximumPlaylistSegments: Int? = 20_000
        /// The share of the throughput estimate a variant may use to be kept, or chosen on the way down.
        public var abrSafetyFactor: Double = 0.8
        /// The share of the throughput estimate a higher variant may use to be switched up to (stricter: hysteresis).
        public var abrSwitchUpSafetyFactor: Double = 0.7
        /// Segment downloads in a row that must have measured headroom for a higher variant before switching up.
        public var abrSwitchUpSamples: Int = 3
        /// How much media must be buffered before switching to a higher variant.
        public var minimumBufferForSwitchUp: MediaTime = 8

        public init() {}
    }

    enum Phase { case idle, loading, ready, ended, failed }

    /// A seek under way.
    struct SeekState {
        /// Where it goes (`nil`: where the playhead is, when the buffer was flushed without a seek asked).
        var target: MediaTime?
        /// Whether it is a jump over a skipped range (not reported as a seek).
        var isSkip = false
    }

    let configuration: Configuration
    let stopwatch: Stopwatch
    let transport: any HTTPTransport
    let logger: Logger
    let broadcaster = Broadcaster<EngineEvent>()
    var selector: VariantSelector

    var source: EngineSource?
    var generation = 0
    var downloadGeneration = 0
    var variants: [VariantInfo] = []
    var importedVariables: [String: String] = [:]
    var timeline = MediaTimeline()
    var streamType: StreamType = .unknown
    var limits = VariantLimits.none
    var downloadVariant: Int?
    var pendingSwitchReason: VariantSwitchReason?
    var currentVariant: Int?

    var phase = Phase.idle
    var wantsToPlay = false
    var rate = 1.0
    var playhead = MediaTime.zero
    var buffer = ForwardBuffer()
    /// The seek under way, if any.
    var seeking: SeekState?
    var skippedRanges = MediaTimeRangeSet()
    var playedRanges = MediaTimeRangeSet()
    var boundaries = ProgressBoundaries()
    /// Whether the last tick moved the playhead (a first movement after a stop is reported at once).
    var movedLastTick = false
    /// The interstitials: scheduled, preloaded or playing, played.
    var interstitials = InterstitialPlayback()
    var volume = 1.0
    var isMuted = false
    var mediaSelection = MediaSelection()
    /// When startup began: the load, or the last play asked before the first frame.
    var startupReference: Duration = .zero
    /// How long the first frame took, once shown.
    var startupTime: Duration?
    var firstFrameShown: Bool { startupTime != nil }
    var stalls = StallTally()
    var variantSwitchCount = 0
    var transfers = TransferCounts()
    var fatalError: EngineError?
    var lastError: EngineError?
    var lastStatus = EngineStatus.idle
    var throughput = ThroughputEstimator()
    var lastInitializationSection: ResourceLocation?
    var lastKey: URL?
    var health = VariantHealth()
    var steering = PathwaySteering()
    /// The ad breaks the stream signals (``noteAdBreaks(of:)``).
    var adBreaks = AdBreakLedger()
    /// The variants that failed to deliver the segment being downloaded.
    var segmentFailures = SegmentFailures()

    var tasks = EngineTasks()
    /// The DASH presentation being played, when the item is one (``adoptPresentation(_:fetchedAt:)``).
    var dash: DASHSession?

    /// Creates an engine.
    /// - Parameters:
    ///   - clock: the clock the playhead, retries and refreshes run on (a test clock in tests).
    ///   - transport: how requests are made, for instance an `AsyncHTTPClientTransport` measuring on `clock`;
    ///     the caller owns it (and shuts it down).
    ///   - configuration: buffering, retries, variant choice.
    ///   - logger: where the engine says what it skipped, retried or failed over.
    public init(clock: any Clock<Duration>, transport: any HTTPTransport,
                configuration: Configuration = Configuration(),
                logger: Logger = Logger(label: "playtrace.headless")) {
        self.configuration = configuration
        self.stopwatch = Stopwatch(clock: clock)
        self.transport = transport
        self.logger = logger
        self.selector = VariantSelector(
            safetyFactor: configuration.abrSafetyFactor, switchUpSafetyFactor: configuration.abrSwitchUpSafetyFactor,
            minimumBufferForSwitchUp: configuration.minimumBufferForSwitchUp, switchUpSamples: configuration.abrSwitchUpSamples)
    }

    deinit {
        tasks.cancelAll()
        broadcaster.finish()
    }

    public nonisolated func events() -> AsyncStream<EngineEvent> { broadcaster.subscribe() }

    public func snapshot() -> EngineSnapshot {
        var snapshot = EngineSnapshot(
            status: lastStatus, wantsToPlay: wantsToPlay, rate: rate, playhead: playhead,
            streamDate: timeline.date(at: playhead),
            loadedRange: MediaTimeRange(start: playhead, end: max(playhead, buffer.end(from: playhead))),
            seekableRange: seekableRange(), duration: streamType == .onDemand ? timeline.range.end : nil,
            streamType: streamType,
            targetDuration: timeline.targetDuration > .zero ? timeline.targetDuration : nil,
            isSeeking: seeking != nil, variants: variants,
            currentVariant: currentVariant.flatMap(variant(at:)), downloadingVariant: downloadVariant.flatMap(variant(at:)),
            estimatedThroughput: throughput.estimate, stallCount: stalls.count,
            stallDuration: stalls.total(at: stopwatch.elapsed),
            variantSwitchCount: variantSwitchCount, bytesReceived: transfers.bytesReceived,
            requestCount: transfers.requests, requestsInFlight: transfers.inFlight, startupTime: startupTime, playedRanges: playedRanges,
            mediaOptions: mediaSelection.options, selectedMediaOptions: mediaSelection.selected, volume: volume, isMuted: isMuted,
            error: fatalError ?? lastError, gaps: segmentFailures.gaps, adBreaks: adBreaks.sorted, interstitial: interstitialStatus,
            interstitials: interstitialSchedule, interstitialPlayedRanges: interstitials.playedRanges,
            liveEdge: streamType == .live || streamType == .dvr ? timeline.range.end : nil)
        snapshot.producerClockOffset = dash?.producerClockOffset
        return snapshot
    }

    public func play() {
        guard phase != .idle, phase != .failed, !wantsToPlay else { return }
        wantsToPlay = true
        if !firstFrameShown { startupReference = max(startupReference, stopwatch.elapsed) }
        let seekable = seekableRange()
        if streamType == .live || streamType == .dvr, playhead < seekable.start {
            // The window slid past the playhead while paused: resume at the oldest position still available.
            seek(to: seekable.start)
        }
        // Playback resumes now, not at the next tick of a period that began while paused: the loop starts again.
        if firstFrameShown { restartPlaybackLoop() }
        updateStatus()
    }

    public func pause() {
        guard wantsToPlay else { return }
        wantsToPlay = false
        if stalls.isStalled { endStall() }
        updateStatus()
    }

    public func setRate(_ rate: Double) {
        let clamped = min(max(rate, 0.1), 8)
        guard clamped != self.rate else { return }
        self.rate = clamped
        emit(.rateChanged(clamped))
    }

    public func setVariantLimits(_ limits: VariantLimits) {
        self.limits = limits
        if let current = downloadVariant.flatMap(variant(at:)), !limits.allows(current) { pendingSwitchReason = .limits }
    }

    public func setVolume(_ volume: Double, isMuted: Bool) {
        self.volume = volume.isFinite ? min(max(volume, 0), 1) : 1
        self.isMuted = isMuted
    }

    public func setReportsProgress(_ enabled: Bool) { boundaries.reportsProgress = enabled }

    public func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) { self.boundaries.set(boundaries) }

    public func stop() {
        cancelTasks()
        generation += 1
        resetState()
        phase = .idle
        updateStatus()
    }

    func variant(at index: Int) -> VariantInfo? { variants.indices.contains(index) ? variants[index] : nil }

    func emit(_ event: EngineEvent) { broadcaster.yield(event) }

    func cancelTasks() { tasks.cancelAll() }

    func resetState() {
        source = nil
        interstitials.active?.cancelDownloads()
        interstitials = InterstitialPlayback()
        steering = PathwaySteering()
        adBreaks = AdBreakLedger()
        variants = []
        importedVariables = [:]
        timeline = MediaTimeline()
        streamType = .unknown
        downloadVariant = nil
        pendingSwitchReason = nil
        currentVariant = nil
        wantsToPlay = false
        playhead = .zero
        buffer = ForwardBuffer()
        seeking = nil
        skippedRanges = MediaTimeRangeSet()
        playedRanges = MediaTimeRangeSet()
        mediaSelection = MediaSelection()
        startupTime = nil
        stalls = StallTally()
        variantSwitchCount = 0
        transfers.reset()
        fatalError = nil
        lastError = nil
        throughput = ThroughputEstimator()
        selector.resetHeadroom()
        lastInitializationSection = nil
        lastKey = nil
        health.reset()
        segmentFailures = SegmentFailures()
        dash = nil
    }

    /// Stops playback on a fatal error.
    func fail(_ error: EngineError) {
        var fatal = error
        fatal.isFatal = true
        fatalError = fatal
        // Notice, not error: the failure reaches the application as the engine's event (a command line says it
        // there); the log keeps it for a debug session.
        logger.notice("playback failed", metadata: ["error": "\(fatal)"])
        // A stall that ends in failure is a failure, not a stall that ended: its time is counted, no resumption
        // is reported.
        stalls.end(at: stopwatch.elapsed)
        cancelTasks()
        phase = .failed
        emit(.error(fatal))
        updateStatus()
    }

    func seekableRange() -> MediaTimeRange {
        let range = timeline.range
        switch streamType {
        case .unknown: return .empty
        case .onDemand: return range
        case .live, .dvr:
            let edge = range.end - timeline.targetDuration * configuration.liveEdgeTargetDurations
            return MediaTimeRange(start: range.start, end: max(range.start, edge))
        }
    }
}
