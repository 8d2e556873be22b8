#if MPV
import Foundation
public import PlaytraceCore
import PlaytraceHeadless
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
/// | `requestCount`, `bytesReceived`, `requestsInFlight`, ``EngineEvent/request(_:)`` | 0 and none: libmpv's demuxer fetches on its own and reports no request |
/// | `variants`, `downloadingVariant` | the one variant that plays (libmpv picks one HLS variant, by `hls-bitrate`), from the decoded size and video bit rate |
/// | `variantSwitchCount` | 0: libmpv does not switch variants while playing |
/// | `estimatedThroughput` | nil: libmpv keeps no estimate |
/// | `targetDuration`, `adBreaks`, `streamDate` | read by the engine from the HLS media playlist libmpv plays (FFmpeg keeps none of its tags), with the HTTP client given to ``init(configuration:clock:transport:)``; nil or empty without one |
/// | `gaps` | empty: libmpv skips a gap without saying so |
/// | `interstitial`, `interstitials` | as on the headless engine (same rules, ``InterstitialSchedule``), read from the media playlist: each asset plays as its own load, then the primary is loaded again at its resume point; asset lists are fetched when the interstitial begins, not preloaded |
/// | `mediaOptions` (subtitles) | none: the FFmpeg libmpv reads HLS with (5.1 in Debian 12) skips WebVTT renditions ("Can't support the subtitle"); audio renditions are listed, one per language and name |
/// | fragmented MP4 | plays from its start; a start position or a seek in it sometimes reaches libmpv's end of file at once (FFmpeg 5.1's HLS reader, Debian 12's): the item then ends early with a non-fatal `decoding` error saying where |
/// | `loadedRange` | the playhead to the playhead plus libmpv's `demuxer-cache-duration` |
/// | live and DVR: `playhead`, `seekableRange`, `streamDate`, `adBreaks` | libmpv's time starts at 0 wherever FFmpeg begins a live stream: the engine places it on the playlist's timeline by the first segment FFmpeg opens (named in FFmpeg's verbose log, which reaches only the first libmpv instance of a process; without it, where FFmpeg starts by default, or the segment a seek asked for, which FFmpeg may miss by a segment when the playlist grew since the engine read it), and reads the media playlist every target duration for the window, dates, ad breaks and interstitials; the seekable range ends three target durations before the window's end, as on the headless engine |
/// | seeks in a live or DVR stream | exact within what libmpv holds (what it buffered ahead, and kept behind); elsewhere FFmpeg cannot seek in a live playlist: the stream is loaded again at the segment that covers the target (`live_start_index`), and the seek lands at that segment's start |
/// | failover | none: FFmpeg's HLS reader plays one variant and skips a segment it cannot fetch (the headless engine fetches it from another variant) |
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
        /// Seconds libmpv buffers ahead (its `demuxer-readahead-secs`).
        public var readAheadDuration: Double = 30
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
    var cacheDuration = 0.0
    var isFileLoaded = false
    var hasShownFirstFrame = false
    var loadRequestedAt: Duration?
    var playRequestedAt: Duration?
    var startupTime: Duration?
    var seekTarget: MediaTime?
    /// Where the seek under way may land (its target widened by its tolerances).
    var seekWindow: ClosedRange<MediaTime>?
    /// Whether the seek under way was sent again, exactly, after landing outside its window.
    var seekResent = false
    /// Sends a seek that never lands again, then ends the item (``SeekWatchdog``).
    var seekWatchdog = SeekWatchdog()
    /// The media times and stream dates at which progress reports end (``setProgressBoundaries(_:)``).
    var timeBoundaries: [MediaTime] = []
    var dateBoundaries: [StreamDate] = []
    /// Both, on the media timeline, in order: worked out when either or the stream's dates change, not per frame.
    var boundaries: [MediaTime] = []
    var stallStartedAt: Duration?
    var stallCount = 0
    var stallDuration = Duration.zero
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
    var reportsProgress = false
    /// Where the last progress report ended (nil after a discontinuity: a seek, a pause, a stall).
    var progressedTo: MediaTime?
    var skippedRanges = MediaTimeRangeSet()
    /// The end of the skipped range being jumped over (a seek of the engine's own, not reported as one).
    var jumpTarget: MediaTime?
    /// Where the last frame was shown during playback (nil after a seek, a pause, a stall), to see timestamps jump.
    var lastFramePosition: MediaTime?
    /// A leap of the frames' positions not yet confirmed by the next frame.
    var pendingLeap: (from: MediaTime, to: MediaTime)?
    /// libmpv's error messages reported in the current second, and those left out once its limit was reached.
    var errorsThisSecond = 0
    var errorSecond = Duration.zero
    var errorsLeftOut = 0
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
    /// Progress boundaries on each interstitial's timeline, sorted, by its ID.
    var interstitialBoundaries: [String: [MediaTime]] = [:]
    /// Where a seek asked while an interstitial had to play first goes when it ends.
    var seekAfterInterstitial: MediaTime?
    /// The JUMP-restricted interstitial a seek goes to first, played when that seek ends.
    var jumpInterstitial: String?
    /// Identifies this playback of the primary to interstitial servers (`_HLS_primary_id`).
    var primaryID = UUID().uuidString.lowercased()
    /// Where libmpv's time 0 lies on the engine's timeline: 0 on demand; on a live stream, the start of the segment
    /// FFmpeg began the load with (libmpv's time starts at each load's first frame).
    var timeOrigin = 0.0
    /// The first segments FFmpeg opened since the primary was last loaded (its "Opening" log lines), until the
    /// engine has placed one.
    var openedSegments: [String] = []
    /// Whether the last load of the primary has had its first segment placed.
    var isOriginPlaced = true
    /// The segment a load of a live primary asked FFmpeg to start with, by its media sequence number (`nil`: where
    /// FFmpeg starts by default).
    var startSequence: Int?
    /// The ad breaks the stream's playlists signal, each refresh of a live one included.
    var adBreaks = AdBreakLedger()
    /// Refreshes a live stream's playlist every target duration.
    var refreshTask: Task<Void, Never>?
    /// Whether ``EngineEvent/loaded(streamType:duration:variants:)`` was sent for the item: once libmpv loaded it
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
            ("demuxer-readahead-secs", String(configuration.readAheadDuration)),
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
        let current = interstitial != nil || pendingStarts > 0 || isPrimaryReplaced || !isOriginPlaced ? playhead
            : primaryPosition() ?? playhead
        let variant = currentVariant
        let listed = stream?.variants ?? []
        return EngineSnapshot(
            status: status, wantsToPlay: wantsToPlay, rate: rate, playhead: current,
            streamDate: stream?.date(at: current),
            loadedRange: isFileLoaded ? MediaTimeRange(start: current, end: current + MediaTime(seconds: cacheDuration)) : .empty,
            seekableRange: seekableRange, duration: duration, streamType: streamType,
            targetDuration: stream?.targetDuration,
            isSeeking: seekTarget != nil, variants: listed.isEmpty ? variant.map { [$0] } ?? [] : listed, currentVariant: variant,
            downloadingVariant: variant, stallCount: stallCount,
            stallDuration: stallDuration + (stallStartedAt.map { stopwatch.elapsed - $0 } ?? .zero),
            startupTime: startupTime, playedRanges: playedSoFar(at: current), mediaOptions: mediaOptions,
            selectedMediaOptions: selectedMediaOptions, volume: volume, isMuted: isMuted, error: error,
            adBreaks: adBreaks.sorted, interstitial: interstitialStatus, interstitials: schedule.events,
            interstitialPlayedRanges: interstitialPlayedRanges,
            liveEdge: stream?.isLive == true && (streamType == .live || streamType == .dvr) ? stream?.window.end : nil)
    }

    /// Where libmpv's playhead is on the engine's timeline.
    func primaryPosition() -> MediaTime? {
        handle.double("time-pos").map { MediaTime(seconds: $0 + timeOrigin) }
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
        loadPrimary(source.url, at: start)
        emit(.statusChanged(.loading))
        readPlaylist(source.url)
    }

    /// Sends ``EngineEvent/loaded(streamType:duration:variants:)`` once libmpv has loaded the item and the engine has
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
            isOriginPlaced = true
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
        case .success(let stream):
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
            isOriginPlaced = true
            handle.requestLogMessages(level: "error")
            emit(.error(EngineError(kind: .network, message: "the stream's playlist, for its dates, ad breaks and interstitials: \(failure)",
                                    isFatal: false)))
        }
        announceLoaded()
        // Playback waited for the playlist, so that a pre-roll plays before the primary moves.
        if wantsToPlay, interstitial == nil { handle.set("pause", "no") }
    }

    public func play() {
        wantsToPlay = true
        if playRequestedAt == nil { playRequestedAt = stopwatch.elapsed }
        // Until the stream's playlist is read, libmpv waits: a pre-roll it announces plays first.
        if !isReadingPlaylist { handle.set("pause", "no") }
        updateStatus()
    }

    public func pause() {
        wantsToPlay = false
        closePlayedRange(at: playhead)
        handle.set("pause", "yes")
        updateStatus()
    }

    public func seek(to position: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        guard isFileLoaded else { return }
        if let previous = seekTarget { emit(.seekEnded(at: previous, completed: false)) }
        closePlayedRange(at: playhead)
        jumpTarget = nil
        var target = unskipped(position)
        if interstitial != nil { return seekDuringInterstitial(to: target) }
        // A forward seek past a JUMP-restricted interstitial goes to it first; the seek's target follows its end.
        var exact = target != position || toleranceBefore == .zero && toleranceAfter == .zero
        if configuration.playsInterstitials, let restricted = schedule.jumpRestricted(from: playhead.seconds, to: target.seconds) {
            seekAfterInterstitial = target
            jumpInterstitial = restricted.event.id
            target = restricted.event.start
            exact = true
        } else {
            jumpInterstitial = nil
        }
        schedule.rearm(after: target.seconds)
        // A seek that lands in a skipped range lands exactly at its end (a key frame before it would show some).
        seekTarget = target
        seekWindow = exact ? target...target : (target - toleranceBefore)...(target + toleranceAfter)
        seekResent = false
        emit(.seekBegan(target: target))
        if let stream, stream.isLive, !isCached(target) {
            // FFmpeg cannot seek in a live stream: the primary is loaded again at the segment that covers the target.
            seekWindow = nil
            loadPrimary(primaryURL ?? stream.url, at: target)
            return
        }
        seekPrimary(to: target, exact: exact)
    }

    /// Sends libmpv a seek to a position of the engine's timeline.
    func seekPrimary(to target: MediaTime, exact: Bool = true) {
        sendSeek(to: target, exact: exact, resent: false)
    }

    /// Sends the seek to libmpv and arms the watchdog (``SeekWatchdog``) for it.
    func sendSeek(to target: MediaTime, exact: Bool, resent: Bool) {
        handle.command(["seek", String(target.seconds - timeOrigin), exact ? "absolute+exact" : "absolute+keyframes"])
        armSeekWatchdog(for: target, resent: resent)
    }

    /// A position moved past the skipped range that contains it.
    func unskipped(_ position: MediaTime) -> MediaTime {
        skippedRanges.range(containing: position)?.end ?? position
    }

    public func setRate(_ rate: Double) {
        guard rate.isFinite, rate > 0, rate != self.rate else { return }
        self.rate = rate
        // An interstitial plays at normal speed: the rate applies to the primary.
        if interstitial == nil { handle.set("speed", String(rate)) }
        emit(.rateChanged(rate))
    }

    public func setVariantLimits(_ limits: VariantLimits) {
        // libmpv chooses an HLS variant once, by bit rate: the highest within the limit.
        maximumBandwidth = limits.maximumBandwidth
        handle.set("hls-bitrate", limits.maximumBandwidth.map(String.init) ?? "max")
    }

    /// libmpv has no way to leave a range out as it plays: the engine watches each decoded frame's position and,
    /// two frames before a range starts, seeks exactly to its end, so that the frame libmpv shows next is the range's
    /// end (a frame period, 40 ms at 25 fps, is the time the seek has to reach libmpv).
    public func setSkippedRanges(_ ranges: MediaTimeRangeSet) {
        skippedRanges = ranges
    }

    public func setVolume(_ volume: Double, isMuted: Bool) {
        self.volume = min(max(volume, 0), 1)
        self.isMuted = isMuted
        handle.set("volume", String(self.volume * 100))
        handle.set("mute", isMuted ? "yes" : "no")
    }

    /// Choosing the track that plays already does nothing: libmpv answers every change of track with a seek of its
    /// own to refill its buffer.
    public func selectMediaOption(_ id: MediaOption.ID?, for kind: MediaOption.Kind) {
        // The primary's tracks: an asset that plays has its own, and the primary's choice applies when it resumes.
        guard interstitial == nil else { return }
        let property = kind == .audio ? "aid" : "sid"
        guard let id else {
            guard selectedMediaOptions[kind] != nil else { return }
            selectedMediaOptions[kind] = nil
            handle.set(property, kind == .audio ? "auto" : "no")
            return
        }
        guard selectedMediaOptions[kind] != id, let option = mediaOptions.first(where: { $0.id == id }),
              let track = track(of: id) else { return }
        handle.set(property, String(track))
        selectedMediaOptions[kind] = option.id
        emit(.mediaOptionSelected(option, kind: kind))
    }

    /// Turning reports on when they are on already changes nothing: the movement under way is reported whole.
    public func setReportsProgress(_ enabled: Bool) {
        guard enabled != reportsProgress else { return }
        reportsProgress = enabled
        progressedTo = nil
    }

    /// libmpv cannot stop the playhead at a point: progress is reported at each decoded frame's position (25 times a
    /// second for 25 fps video); a frame's movement that crosses a boundary is reported in two parts, the first
    /// ending a microsecond past the boundary (so that rounding never leaves it outside), its `lag` saying how long
    /// ago (at most a frame) the playhead was there. Date boundaries apply once the stream's playlist is read
    /// (``init(configuration:clock:transport:)``); interstitial ones split an interstitial's movements the same way.
    public func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) {
        timeBoundaries = boundaries.compactMap { if case .time(let time) = $0 { time } else { nil } }
        dateBoundaries = boundaries.compactMap { if case .date(let date) = $0 { date } else { nil } }
        var byInterstitial: [String: [MediaTime]] = [:]
        for case .interstitial(let id, let time) in boundaries { byInterstitial[id, default: []].append(time) }
        interstitialBoundaries = byInterstitial.mapValues { $0.sorted() }
        placeBoundaries()
    }

    /// Places the boundaries on the media timeline (date ones once the stream's dates are known).
    func placeBoundaries() {
        let dated = stream.map { stream in dateBoundaries.compactMap { stream.dates.time(at: $0) } } ?? []
        boundaries = (timeBoundaries + dated).sorted()
    }

    /// How far past a boundary the report that reaches it ends.
    static let boundaryOvershoot = MediaTime(seconds: 1e-6)


    public func stop() {
        handle.command(["stop"])
        resetState()
        emit(.statusChanged(.idle))
    }

    // MARK: - State

    func updateStatus() {
        let next: EngineStatus
        if error != nil {
            next = .failed
        } else if status == .ended {
            next = .ended
        } else if !isFileLoaded {
            next = status == .idle ? .idle : .loading
        } else if !hasShownFirstFrame {
            next = wantsToPlay ? .loading : .paused
        } else if !wantsToPlay {
            next = .paused
        } else if isPausedForCache {
            next = .stalled
        } else {
            next = .playing
        }
        guard next != status else { return }
        status = next
        emit(.statusChanged(next))
    }

    func closePlayedRange(at end: MediaTime) {
        guard let start = playedFrom else { return }
        playedFrom = nil
        if end > start { playedRanges.insert(MediaTimeRange(start: start, end: end)) }
    }

    func playedSoFar(at current: MediaTime) -> MediaTimeRangeSet {
        var ranges = playedRanges
        if let start = playedFrom, current > start { ranges.insert(MediaTimeRange(start: start, end: current)) }
        return ranges
    }

    func resetState() {
        status = .idle
        wantsToPlay = false
        duration = nil
        playhead = .zero
        cacheDuration = 0
        isFileLoaded = false
        hasShownFirstFrame = false
        loadRequestedAt = nil
        playRequestedAt = nil
        startupTime = nil
        seekTarget = nil
        seekWindow = nil
        disarmSeekWatchdog()
        stallStartedAt = nil
        stallCount = 0
        stallDuration = .zero
        isPausedForCache = false
        mediaOptions = []
        selectedMediaOptions = [:]
        renditionTracks = [:]
        playingVariantOrdinal = 0
        error = nil
        playedRanges = MediaTimeRangeSet()
        playedFrom = nil
        progressedTo = nil
        jumpTarget = nil
        frameRate = 25
        stream = nil
        placeBoundaries()
        lastFramePosition = nil
        pendingLeap = nil
        interstitial?.task?.cancel()
        interstitial = nil
        schedule = InterstitialSchedule()
        interstitialPlayedRanges = [:]
        seekAfterInterstitial = nil
        jumpInterstitial = nil
        pendingStarts = 0
        isResumingPrimary = false
        isPrimaryReplaced = false
        isReadingPlaylist = false
        primaryID = UUID().uuidString.lowercased()
        timeOrigin = 0
        openedSegments = []
        isOriginPlaced = true
        startSequence = nil
        adBreaks = AdBreakLedger()
        refreshTask?.cancel()
        refreshTask = nil
        isLoadAnnounced = false
        handle.set("pause", "yes")
        handle.set("speed", String(rate))
    }

    func emit(_ event: EngineEvent) {
        broadcaster.yield(event)
    }
}
#endif
