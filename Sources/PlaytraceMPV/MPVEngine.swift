#if MPV
import Foundation
public import PlaytraceCore
import PlaytraceHLSPlayback
public import PlaytraceNetwork
public import PlaytracePlayer

/// An engine that decodes, through libmpv (the engine of mpv): real frames, real audio, real dropped frames.
///
/// Video and audio go to null outputs by default (a probe, a test, a load generator); ``Configuration/showsOutput``
/// opens a window and plays sound for a person watching. State comes from libmpv's observed properties and events,
/// delivered by its wakeup callback: no polling loop.
///
/// ```swift
/// let engine = MPVEngine()
/// let events = engine.events()
/// await engine.load(EngineSource(url: URL(string: "http://127.0.0.1:8080/media/vod/master.m3u8")!))
/// await engine.play()
/// for await event in events { if case .ended = event { break } }
/// ```
///
/// What libmpv does not report, and what the snapshot holds instead:
///
/// | Snapshot field | On this engine |
/// |---|---|
/// | `requestCount`, `bytesReceived`, `requestsInFlight`, `EngineEvent.request(_:)` | 0 and none: libmpv's demuxer fetches on its own and reports no request |
/// | `variants`, `downloadingVariant` | the one variant that plays (libmpv picks one HLS variant, by `hls-bitrate`), from the decoded size and video bit rate |
/// | `variantSwitchCount` | 0: libmpv does not switch variants while playing |
/// | `estimatedThroughput` | nil: libmpv keeps no estimate |
/// | `targetDuration`, `adBreaks`, `streamDate` | read by the engine from the HLS media playlist libmpv plays (FFmpeg keeps none of its tags), with the HTTP client given to ``init(configuration:clock:transport:)``; nil or empty without one |
/// | `gaps` | empty: libmpv skips a gap without saying so |
/// | `interstitial`, `interstitials` | as on the headless engine (same rules, `InterstitialSchedule`), read from the media playlist: each asset plays as its own load, then the primary is loaded again at its resume point; asset lists are fetched when the interstitial begins, not preloaded |
/// | `mediaOptions` (subtitles) | none: the FFmpeg libmpv reads HLS with (5.1 in Debian 12) skips WebVTT renditions ("Can't support the subtitle"); audio renditions are listed, one per language and name |
/// | fragmented MP4 | plays from its start; a start position or a seek in it sometimes reaches libmpv's end of file at once (FFmpeg 5.1's HLS reader, Debian 12's): the item then ends early with a non-fatal `decoding` error saying where |
/// | `loadedRange` | the playhead to the playhead plus libmpv's `demuxer-cache-duration` |
/// | live and DVR: `playhead`, `seekableRange`, `streamDate`, `adBreaks` | libmpv's time starts at 0 wherever FFmpeg begins a live stream: the engine places it on the playlist's timeline by the first segment FFmpeg opens (named in FFmpeg's verbose log, which reaches only the first libmpv instance of a process; without it, where FFmpeg starts by default, or the segment a seek asked for, which FFmpeg may miss by a segment when the playlist grew since the engine read it), and reads the media playlist every target duration for the window, dates, ad breaks and interstitials; the seekable range ends three target durations before the window's end, as on the headless engine |
/// | seeks in a live or DVR stream | exact within what libmpv holds (what it buffered ahead, and kept behind); elsewhere FFmpeg cannot seek in a live playlist: the stream is loaded again at the segment that covers the target (`live_start_index`), and the seek lands at that segment's start |
/// | failover | none: FFmpeg's HLS reader plays one variant and skips a segment it cannot fetch (the headless engine fetches it from another variant) |
/// | MPEG-DASH | with the HTTP client, the engine reads the MPD (its clock from `UTCTiming`) as the headless engine does. A live or DVR MPD plays through HLS playlists the engine writes for it in a private directory (`DASHBridge`; FFmpeg's DASH reader ignores `UTCTiming`, starts a `SegmentTimeline` 60 s from its end and, at each refresh of a timeline whose `startNumber` is not 0, goes back to the window's first segment): it starts three target durations from the live edge and has the live checks' window, dates, seeks and ad breaks; the MPD is fetched again at `minimumUpdatePeriod`. An on-demand MPD plays through FFmpeg's DASH reader (which starts and seeks in fragmented MP4 more surely than its HLS reader), its dates, ad breaks and target duration read from the same playlists. FFmpeg plays one representation per adaptation set (no ABR; on demand the variant reported is the one decoded, its size and bit rate) and no `BaseURL` failover; a multi-period on-demand MPD (an SSAI ad period) is beyond FFmpeg's DASH reader. Events carried in segments (`emsg`: SCTE-35 breaks, SVTA2053 ad signaling) are not read: the engine fetches no segment, and FFmpeg keeps no `emsg`; those of the MPD's `EventStream` are. Nor are the segments' `prft` boxes: the producer's clock comes from the MPD's `ProducerReferenceTime` alone, and without one, ad times given on it (Harmonic's `prftStartTime`) are placed by their `startTime`. Without an HTTP client libmpv reads every MPD alone |
///
/// Progress reports come at each decoded frame (libmpv cannot stop the playhead at a boundary): a movement that
/// crosses a boundary is split there (``setProgressBoundaries(_:)``). Skipped ranges are applied two frames ahead
/// of the playhead (``setSkippedRanges(_:)``). What only a decoder notices is reported as non-fatal
/// `EngineError.Kind.decoding` errors: libmpv's error messages (a damaged frame: `h264: co located POCs
/// unavailable`, when libmpv logs it, which depends on its decoding threads), at most ten a second, and timestamps
/// that jump with no seek asked for.
public actor MPVEngine: PlaybackEngine {
    /// How the engine is set up.
    public struct Configuration: Sendable {
        /// Whether video shows in a window and audio plays (off: null outputs, nothing shown or heard).
        public var showsOutput = false
        /// How much media libmpv buffers ahead (its `demuxer-readahead-secs`).
        public var readAheadDuration: MediaTime = 30
        /// How long a seek may go without landing before it is sent again, and again before the item ends with a
        /// non-fatal error (20 s: libmpv lands a seek in milliseconds; a network read it waits on times out at 60 s).
        public var seekWatchdogBound: Duration = .seconds(20)
        /// Whether HLS interstitials are played (read from the media playlist: needs the HTTP client given to
        /// ``MPVEngine/init(configuration:clock:transport:)``).
        public var playsInterstitials = true
        /// Reads asset lists that are not the HLS JSON (VAST), as the headless engine's.
        public var assetListReader: (any InterstitialAssetListReader)?

        /// The default configuration.
        public init() {}
    }

    let handle: MPVHandle
    let configuration: Configuration
    /// Reads the HLS playlists for what libmpv does not report (dates, ad breaks).
    let transport: (any HTTPTransport)?
    /// The media playlist libmpv plays, once read.
    var stream: StreamPlaylist?
    /// Counts the loads: a playlist read for an earlier load is dropped.
    var loadGeneration = 0
    var maximumBandwidth: Int?
    let broadcaster = Broadcaster<EngineEvent>()
    let stopwatch: Stopwatch
    let wakeups: AsyncStream<Void>
    var eventTask: Task<Void, Never>?

    var status = EngineStatus.idle
    var wantsToPlay = false
    var rate = 1.0
    var volume = 1.0
    var isMuted = false
    var duration: MediaTime?
    var playhead = MediaTime.zero
    /// How much media libmpv holds ahead of the playhead (its `demuxer-cache-duration`).
    var cacheDuration = MediaTime.zero
    var isFileLoaded = false
    var hasShownFirstFrame = false
    var loadRequestedAt: Duration?
    var playRequestedAt: Duration?
    var startupTime: Duration?
    /// The seek asked for that has not landed yet.
    var pendingSeek: PendingSeek?
    /// Sends a seek that never lands again, then ends the item (`SeekWatchdog`).
    var seekWatchdog = SeekWatchdog()
    /// Whether progress is reported, and the media times, stream dates and interstitial times at which reports end
    /// (``setProgressBoundaries(_:)``).
    var progress = ProgressBoundaries()
    /// The times and dates, on the media timeline, in order: worked out when either or the stream's dates change,
    /// not per frame.
    var boundaries: [MediaTime] = []
    var stalls = StallTally()
    var isPausedForCache = false
    var videoBitRate: Double?
    var width: Int?
    var height: Int?
    var droppedFrames = 0
    var mediaOptions: [MediaOption] = []
    var selectedMediaOptions: [MediaOption.Kind: MediaOption.ID] = [:]
    var error: EngineError?
    var playedRanges = MediaTimeRangeSet()
    var playedFrom: MediaTime?
    /// Where the last progress report ended (nil after a discontinuity: a seek, a pause, a stall).
    var progressedTo: MediaTime?
    var skippedRanges = MediaTimeRangeSet()
    /// The end of the skipped range being jumped over (a seek of the engine's own, not reported as one).
    var jumpTarget: MediaTime?
    /// Where the last frame was shown during playback (nil after a seek, a pause, a stall), to see timestamps jump.
    var lastFramePosition: MediaTime?
    /// A leap of the frames' positions not yet confirmed by the next frame.
    var pendingLeap: (from: MediaTime, to: MediaTime)?
    /// How many of libmpv's error messages are reported in a second (``errorsPerSecond``).
    var errorLimit = MessageRateLimit(perSecond: MPVEngine.errorsPerSecond)
    /// Each audio and subtitle option's tracks, one per variant that carries it, in the variants' order; and which
    /// video track (in the same order) plays.
    var renditionTracks: [MediaOption.ID: [Int]] = [:]
    var playingVariantOrdinal = 0
    /// The video's frame rate as libmpv estimates it (25 until known).
    var frameRate = 25.0
    /// The primary's address, loaded again when it resumes after an interstitial.
    var primaryURL: URL?
    /// `loadfile` commands whose file libmpv has not started yet: until it has, its events are the previous file's.
    var pendingStarts = 0
    /// Whether libmpv is reloading the primary after an interstitial (its load is no new item's).
    var isResumingPrimary = false
    /// Whether libmpv holds an interstitial's asset in place of the primary, which must then be loaded again to
    /// resume (after a post-roll, to the end).
    var isPrimaryReplaced = false
    /// Whether the stream's playlist is being read: libmpv starts playing once it is, so that a pre-roll is known
    /// before the primary moves.
    var isReadingPlaylist = false
    /// Counts the interstitials begun since the engine was made.
    var interstitialsBegun = 0
    /// The interstitials the playlist schedules, the one that plays, and what was played of each.
    var schedule = InterstitialSchedule()
    var interstitial: PlayingInterstitial?
    var interstitialPlayedRanges: [String: MediaTimeRangeSet] = [:]
    /// Where a seek asked while an interstitial had to play first goes when it ends.
    var seekAfterInterstitial: MediaTime?
    /// The JUMP-restricted interstitial a seek goes to first, played when that seek ends.
    var jumpInterstitial: String?
    /// Identifies this playback of the primary to interstitial servers (`_HLS_primary_id`).
    var primaryID = UUID().uuidString.lowercased()
    /// Where libmpv's time 0 lies on the engine's timeline.
    var origin = LiveOrigin()
    /// The ad breaks the stream's playlists signal, each refresh of a live one included.
    var adBreaks = AdBreakLedger()
    /// Refreshes a live stream's playlist every target duration.
    var refreshTask: Task<Void, Never>?
    /// A DASH item's presentation written as HLS playlists (``DASHBridge``), and the loop that keeps a live one's
    /// up to date.
    var dashBridge: DASHBridge? { didSet { dashDirectory = dashBridge?.directory } }
    var dashTask: Task<Void, Never>?
    /// The bridge's directory, which the engine's deinit removes (the bridge itself stays on the actor).
    private var dashDirectory: URL?
    /// Whether `EngineEvent.loaded(streamType:duration:variants:)` was sent for the item: once libmpv loaded it
    /// and the engine read its playlist (which says whether it is live).
    var isLoadAnnounced = false

    /// Creates an engine with its own libmpv instance. When libmpv cannot start (an option it refuses, no memory),
    /// every load fails at once with a fatal error that says why.
    /// - Parameters:
    ///   - configuration: outputs and buffering.
    ///   - clock: the clock startup times and stalls are measured on.
    ///   - transport: an HTTP client to read an HLS stream's media playlist with, for its program date time and ad
    ///     breaks (libmpv reports neither); `nil`: the snapshot has no dates and no ad breaks.
    public init(configuration: Configuration = Configuration(), clock: any Clock<Duration> = ContinuousClock(),
                transport: (any HTTPTransport)? = nil) {
        self.transport = transport
        self.configuration = configuration
        let output = configuration.showsOutput ? "auto" : "null"
        handle = MPVHandle(options: [
            ("vo", configuration.showsOutput ? "gpu" : "null"), ("ao", output), ("terminal", "no"),
            ("input-default-bindings", "no"), ("ytdl", "no"), ("keep-open", "yes"), ("idle", "yes"),
            ("pause", "yes"), ("cache", "yes"), ("hwdec", "no"),
            ("demuxer-readahead-secs", String(configuration.readAheadDuration.seconds)),
            ("demuxer-lavf-o", Self.readerOptions),
        ])
        stopwatch = Stopwatch(clock: clock)
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakeups = signals
        handle.setWakeup(WakeSignal(continuation))
        for (name, format) in Self.observed { handle.observe(name, as: format) }
        handle.requestLogMessages(level: "error")
    }

    /// FFmpeg's HLS reader opens the next segment while it reads one (`http_multiple`): a late answer then holds
    /// back the packets of the segment being read, and playback stalls a segment early.
    static let readerOptions = "http_multiple=0"

    /// Starts handling libmpv's events, once: each wakeup drains what libmpv has queued.
    func startEventLoop() {
        guard eventTask == nil else { return }
        let signals = wakeups
        eventTask = Task { [weak self] in
            for await _ in signals {
                guard let self else { return }
                await self.drainEvents()
            }
        }
    }

    // Not `isolated`: an isolated deinit crashes Swift 6.3's optimizer in a release build of a module that uses
    // the engine (a cycle in its actor-isolation request); the last reference gives the deinit the handle alone.
    deinit {
        eventTask?.cancel()
        dashTask?.cancel()
        if let dashDirectory { try? FileManager.default.removeItem(at: dashDirectory) }
        handle.destroy()
    }

    /// The properties whose changes drive the engine.
    static let observed: [(String, MPVFormat)] = [
        ("time-pos", .double), ("duration", .double), ("paused-for-cache", .flag), ("demuxer-cache-duration", .double),
        ("video-bitrate", .double), ("width", .int), ("height", .int), ("frame-drop-count", .int),
        ("decoder-frame-drop-count", .int), ("track-list/count", .int), ("eof-reached", .flag), ("aid", .string),
        ("sid", .string), ("estimated-vf-fps", .double),
    ]

    public nonisolated func events() -> AsyncStream<EngineEvent> { broadcaster.subscribe() }

    public func snapshot() -> EngineSnapshot {
        // While an asset plays, or libmpv loads the primary again, libmpv's position is not the primary's.
        let current = interstitial != nil || pendingStarts > 0 || isPrimaryReplaced || !origin.isPlaced ? playhead
            : primaryPosition() ?? playhead
        let variant = currentVariant
        let listed = stream?.variants ?? []
        var snapshot = EngineSnapshot(
            status: status, wantsToPlay: wantsToPlay, rate: rate, playhead: current,
            streamDate: stream?.date(at: current),
            loadedRange: isFileLoaded ? MediaTimeRange(start: current, end: current + cacheDuration) : .empty,
            seekableRange: seekableRange, duration: duration, streamType: streamType,
            targetDuration: stream?.targetDuration,
            isSeeking: pendingSeek != nil, variants: listed.isEmpty ? variant.map { [$0] } ?? [] : listed, currentVariant: variant,
            downloadingVariant: variant, stallCount: stalls.count,
            stallDuration: stalls.total(at: stopwatch.elapsed),
            startupTime: startupTime, playedRanges: playedSoFar(at: current), mediaOptions: mediaOptions,
            selectedMediaOptions: selectedMediaOptions, volume: volume, isMuted: isMuted, error: error,
            adBreaks: adBreaks.sorted, interstitial: interstitialStatus, interstitials: schedule.events,
            interstitialPlayedRanges: interstitialPlayedRanges,
            liveEdge: stream?.isLive == true && (streamType == .live || streamType == .dvr) ? stream?.window.end : nil)
        // The MPD's `ProducerReferenceTime` (libmpv fetches the segments, so no `prft` is read).
        snapshot.producerClockOffset = dashBridge?.session.producerClockOffset
        return snapshot
    }

    /// Where libmpv's playhead is on the engine's timeline.
    func primaryPosition() -> MediaTime? {
        handle.double("time-pos").map { MediaTime(seconds: $0) + origin.time }
    }

    /// A live window at least this long (seconds) makes the stream DVR (as on the headless engine).
    static let minimumDVRWindow = 60.0

    var streamType: StreamType {
        guard isFileLoaded, isLoadAnnounced else { return .unknown }
        guard let stream, stream.isLive else { return duration == nil ? .live : .onDemand }
        return stream.window.duration.seconds >= Self.minimumDVRWindow ? .dvr : .live
    }

    /// Where a live stream's seekable range ends before the window's end, in target durations (as on the headless
    /// engine, and as AVPlayer does: where live playback starts).
    static let liveEdgeTargetDurations = 3.0

    /// On demand, the whole stream; live, the playlist's window up to three target durations from its end.
    var seekableRange: MediaTimeRange {
        guard let stream, stream.isLive else { return duration.map { MediaTimeRange(start: .zero, end: $0) } ?? .empty }
        let window = stream.window
        let edge = window.end - MediaTime(seconds: Self.liveEdgeTargetDurations * stream.targetDuration.seconds)
        return MediaTimeRange(start: window.start, end: max(window.start, edge))
    }

    /// The variant of the multivariant playlist libmpv plays once the engine has read it (its declared bandwidth, as
    /// the headless engine reports it); before, or for a media playlist, what the decoder tells: its size and the
    /// video's measured bit rate.
    var currentVariant: VariantInfo? {
        guard isFileLoaded else { return nil }
        if let stream, let index = stream.variantIndex, stream.variants.indices.contains(index) {
            var variant = stream.variants[index]
            variant.width = variant.width ?? width
            variant.height = variant.height ?? height
            return variant
        }
        guard width != nil || videoBitRate != nil else { return nil }
        return VariantInfo(index: 0, bandwidth: Int(videoBitRate ?? 0), width: width, height: height, url: stream?.url.absoluteString ?? "")
    }

    public func load(_ source: EngineSource) {
        startEventLoop()
        resetState()
        status = .loading
        loadRequestedAt = stopwatch.elapsed
        if let failure = handle.failure {
            fail(EngineError(kind: .decoding, message: "libmpv could not start: \(failure)", isFatal: true))
            return
        }
        skippedRanges = source.skippedRanges
        // A start inside a skipped range (the default start of on-demand included) moves to its end. The option is
        // set before the load (the per-file options of `loadfile` moved between libmpv versions).
        let start = source.startPosition.map(unskipped) ?? skippedRanges.range(containing: .zero)?.end
        primaryURL = source.url
        // FFmpeg says which segment it opens at its verbose level: the engine places a live stream's timeline by it.
        handle.requestLogMessages(level: "v")
        if Self.isMPD(source.url) {
            emit(.statusChanged(.loading))
            loadDASH(source.url, at: start)
            return
        }
        loadPrimary(source.url, at: start)
        emit(.statusChanged(.loading))
        readPlaylist(source.url)
    }

    /// Sends `EngineEvent.loaded(streamType:duration:variants:)` once libmpv has loaded the item and the engine has
    /// read its playlist, if it reads one: a live stream is then known as live (libmpv gives it a growing duration).
    func announceLoaded() {
        guard isFileLoaded, !isReadingPlaylist, !isLoadAnnounced else { return }
        isLoadAnnounced = true
        emit(.loaded(streamType: streamType, duration: duration, variants: currentVariant.map { [$0] } ?? []))
        updateStatus()
    }

    /// Reads the HLS media playlist libmpv plays, for its dates and ad breaks; a playlist that cannot be read is a
    /// warning (libmpv may still play the stream), not a failure.
    func readPlaylist(_ url: URL) {
        loadGeneration += 1
        guard let transport, url.pathExtension.lowercased() == "m3u8" else {
            origin.settle()
            handle.requestLogMessages(level: "error")
            return
        }
        isReadingPlaylist = true
        let generation = loadGeneration
        let maximumBandwidth = maximumBandwidth
        Task { [weak self] in
            let result: Result<StreamPlaylist, StreamPlaylist.ReadError>
            do throws(StreamPlaylist.ReadError) {
                result = .success(try await StreamPlaylist.read(url, maximumBandwidth: maximumBandwidth, transport: transport))
            } catch {
                result = .failure(error)
            }
            await self?.playlistRead(result, generation: generation)
        }
    }

    func playlistRead(_ result: Result<StreamPlaylist, StreamPlaylist.ReadError>, generation: Int) {
        guard generation == loadGeneration, status != .idle else { return }
        isReadingPlaylist = false
        switch result {
        case .success(var stream):
            // A DASH presentation's variants are named by their tracks in the MPD, not by the files written for them.
            // An on-demand one plays through FFmpeg's DASH reader, which picks its representation itself: the variant
            // is then the one decoded (its size and bit rate), not the one the engine read the dates from.
            if let bridge = dashBridge {
                if bridge.session.presentation.type == .static {
                    stream.variants = []
                    stream.variantIndex = nil
                }
                for index in stream.variants.indices {
                    stream.variants[index].url = bridge.trackURL(ofFile: stream.variants[index].url) ?? stream.variants[index].url
                }
            }
            self.stream = stream
            placeOrigin()
            if stream.isLive {
                duration = nil
                refreshTask = refreshLoop(stream.url, every: stream.targetDuration, generation: generation)
            } else {
                handle.requestLogMessages(level: "error")
            }
            streamChanged(stream)
        case .failure(let failure):
            origin.settle()
            handle.requestLogMessages(level: "error")
            emit(.error(EngineError(kind: .network, message: "the stream's playlist, for its dates, ad breaks and interstitials: \(failure)",
                                    isFatal: false)))
        }
        announceLoaded()
        // Playback waited for the playlist, so that a pre-roll plays before the primary moves.
        if wantsToPlay, interstitial == nil { handle.set("pause", "no") }
    }

}
#endif
