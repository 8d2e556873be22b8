#if MPV
import Foundation
public import PlaytraceCore
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
/// | `interstitial`, `interstitials` | none yet: an interstitial's date range is read, and its asset not played (the primary plays on) |
/// | `mediaOptions` (subtitles) | none: the FFmpeg libmpv reads HLS with (5.1 in Debian 12) skips WebVTT renditions ("Can't support the subtitle"); audio renditions are listed, one per language and name |
/// | `loadedRange` | the playhead to the playhead plus libmpv's `demuxer-cache-duration` |
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

        /// The default configuration.
        public init() {}
    }

    private let handle: MPVHandle
    /// Reads the HLS playlists for what libmpv does not report (dates, ad breaks).
    private let transport: (any HTTPTransport)?
    /// The media playlist libmpv plays, once read.
    private var stream: StreamPlaylist?
    /// Counts the loads: a playlist read for an earlier load is dropped.
    private var loadGeneration = 0
    private var maximumBandwidth: Int?
    private let broadcaster = Broadcaster<EngineEvent>()
    private let stopwatch: Stopwatch
    private let wakeups: AsyncStream<Void>
    private var eventTask: Task<Void, Never>?

    private var status = EngineStatus.idle
    private var wantsToPlay = false
    private var rate = 1.0
    private var volume = 1.0
    private var isMuted = false
    private var duration: MediaTime?
    private var playhead = MediaTime.zero
    private var cacheDuration = 0.0
    private var isFileLoaded = false
    private var hasShownFirstFrame = false
    private var loadRequestedAt: Duration?
    private var playRequestedAt: Duration?
    private var startupTime: Duration?
    private var seekTarget: MediaTime?
    /// Where the seek under way may land (its target widened by its tolerances).
    private var seekWindow: ClosedRange<MediaTime>?
    /// Whether the seek under way was sent again, exactly, after landing outside its window.
    private var seekResent = false
    /// The media times and stream dates at which progress reports end (``setProgressBoundaries(_:)``).
    private var timeBoundaries: [MediaTime] = []
    private var dateBoundaries: [StreamDate] = []
    /// Both, on the media timeline, in order: worked out when either or the stream's dates change, not per frame.
    private var boundaries: [MediaTime] = []
    private var stallStartedAt: Duration?
    private var stallCount = 0
    private var stallDuration = Duration.zero
    private var isPausedForCache = false
    private var videoBitRate: Double?
    private var width: Int?
    private var height: Int?
    private var droppedFrames = 0
    private var mediaOptions: [MediaOption] = []
    private var selectedMediaOptions: [MediaOption.Kind: MediaOption.ID] = [:]
    private var error: EngineError?
    private var playedRanges = MediaTimeRangeSet()
    private var playedFrom: MediaTime?
    private var reportsProgress = false
    /// Where the last progress report ended (nil after a discontinuity: a seek, a pause, a stall).
    private var progressedTo: MediaTime?
    private var skippedRanges = MediaTimeRangeSet()
    /// The end of the skipped range being jumped over (a seek of the engine's own, not reported as one).
    private var jumpTarget: MediaTime?
    /// Where the last frame was shown during playback (nil after a seek, a pause, a stall), to see timestamps jump.
    private var lastFramePosition: MediaTime?
    /// A leap of the frames' positions not yet confirmed by the next frame.
    private var pendingLeap: (from: MediaTime, to: MediaTime)?
    /// libmpv's error messages reported in the current second, and those left out once its limit was reached.
    private var errorsThisSecond = 0
    private var errorSecond = Duration.zero
    private var errorsLeftOut = 0
    /// The video's frame rate as libmpv estimates it (25 until known).
    private var frameRate = 25.0

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
        let output = configuration.showsOutput ? "auto" : "null"
        handle = MPVHandle(options: [
            ("vo", configuration.showsOutput ? "gpu" : "null"), ("ao", output), ("terminal", "no"),
            ("input-default-bindings", "no"), ("ytdl", "no"), ("keep-open", "yes"), ("idle", "yes"),
            ("pause", "yes"), ("cache", "yes"), ("hwdec", "no"),
            ("demuxer-readahead-secs", String(configuration.readAheadDuration)),
            // FFmpeg's HLS reader opens the next segment while it reads one (`http_multiple`): a late answer then
            // holds back the packets of the segment being read, and playback stalls a segment early.
            ("demuxer-lavf-o", "http_multiple=0"),
        ])
        stopwatch = Stopwatch(clock: clock)
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakeups = signals
        handle.setWakeup(WakeSignal(continuation))
        for (name, format) in Self.observed { handle.observe(name, as: format) }
        handle.requestLogMessages(level: "error")
    }

    /// Starts handling libmpv's events, once: each wakeup drains what libmpv has queued.
    private func startEventLoop() {
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
    private static let observed: [(String, MPVFormat)] = [
        ("time-pos", .double), ("duration", .double), ("paused-for-cache", .flag), ("demuxer-cache-duration", .double),
        ("video-bitrate", .double), ("width", .int), ("height", .int), ("frame-drop-count", .int),
        ("decoder-frame-drop-count", .int), ("track-list/count", .int), ("eof-reached", .flag), ("aid", .string),
        ("sid", .string), ("estimated-vf-fps", .double),
    ]

    public nonisolated func events() -> AsyncStream<EngineEvent> { broadcaster.subscribe() }

    public func snapshot() -> EngineSnapshot {
        let current = handle.double("time-pos").map { MediaTime(seconds: $0) } ?? playhead
        let variant = currentVariant
        return EngineSnapshot(
            status: status, wantsToPlay: wantsToPlay, rate: rate, playhead: current,
            streamDate: stream?.date(at: current),
            loadedRange: isFileLoaded ? MediaTimeRange(start: current, end: current + MediaTime(seconds: cacheDuration)) : .empty,
            seekableRange: duration.map { MediaTimeRange(start: .zero, end: $0) } ?? .empty,
            duration: duration, streamType: isFileLoaded ? (duration == nil ? .live : .onDemand) : .unknown,
            targetDuration: stream?.targetDuration,
            isSeeking: seekTarget != nil, variants: variant.map { [$0] } ?? [], currentVariant: variant,
            downloadingVariant: variant, stallCount: stallCount,
            stallDuration: stallDuration + (stallStartedAt.map { stopwatch.elapsed - $0 } ?? .zero),
            startupTime: startupTime, playedRanges: playedSoFar(at: current), mediaOptions: mediaOptions,
            selectedMediaOptions: selectedMediaOptions, volume: volume, isMuted: isMuted, error: error,
            adBreaks: stream?.adBreaks ?? [])
    }

    /// The variant that plays, as far as the decoder tells.
    private var currentVariant: VariantInfo? {
        guard isFileLoaded, width != nil || videoBitRate != nil else { return nil }
        return VariantInfo(index: 0, bandwidth: Int(videoBitRate ?? 0), width: width, height: height, url: "")
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
        handle.set("start", start.map { String($0.seconds) } ?? "none")
        handle.command(["loadfile", source.url.absoluteString, "replace"])
        emit(.statusChanged(.loading))
        readPlaylist(source.url)
    }

    /// Reads the HLS media playlist libmpv plays, for its dates and ad breaks; a playlist that cannot be read is a
    /// warning (libmpv may still play the stream), not a failure.
    private func readPlaylist(_ url: URL) {
        loadGeneration += 1
        guard let transport, url.pathExtension.lowercased() == "m3u8" else { return }
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

    private func playlistRead(_ result: Result<StreamPlaylist, StreamPlaylist.ReadError>, generation: Int) {
        guard generation == loadGeneration, status != .idle else { return }
        switch result {
        case .success(let stream):
            self.stream = stream
            placeBoundaries()
            let breaks = stream.adBreaks
            if !breaks.isEmpty { emit(.adBreaksChanged(breaks)) }
        case .failure(let failure):
            emit(.error(EngineError(kind: .network, message: "the stream's playlist, for its dates and ad breaks: \(failure)",
                                    isFatal: false)))
        }
    }

    public func play() {
        wantsToPlay = true
        if playRequestedAt == nil { playRequestedAt = stopwatch.elapsed }
        handle.set("pause", "no")
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
        let target = unskipped(position)
        // A seek that lands in a skipped range lands exactly at its end (a key frame before it would show some).
        let exact = target != position || toleranceBefore == .zero && toleranceAfter == .zero
        seekTarget = target
        seekWindow = exact ? target...target : (target - toleranceBefore)...(target + toleranceAfter)
        seekResent = false
        emit(.seekBegan(target: target))
        handle.command(["seek", String(target.seconds), exact ? "absolute+exact" : "absolute+keyframes"])
    }

    /// A position moved past the skipped range that contains it.
    private func unskipped(_ position: MediaTime) -> MediaTime {
        skippedRanges.range(containing: position)?.end ?? position
    }

    public func setRate(_ rate: Double) {
        guard rate.isFinite, rate > 0, rate != self.rate else { return }
        self.rate = rate
        handle.set("speed", String(rate))
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
        let property = kind == .audio ? "aid" : "sid"
        guard let id else {
            guard selectedMediaOptions[kind] != nil else { return }
            selectedMediaOptions[kind] = nil
            handle.set(property, kind == .audio ? "auto" : "no")
            return
        }
        guard selectedMediaOptions[kind] != id, let option = mediaOptions.first(where: { $0.id == id }),
              let track = id.split(separator: ":").last else { return }
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
    /// (``init(configuration:clock:transport:)``); interstitial ones do not (no interstitial plays on this engine).
    public func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) {
        timeBoundaries = boundaries.compactMap { if case .time(let time) = $0 { time } else { nil } }
        dateBoundaries = boundaries.compactMap { if case .date(let date) = $0 { date } else { nil } }
        placeBoundaries()
    }

    /// Places the boundaries on the media timeline (date ones once the stream's dates are known).
    private func placeBoundaries() {
        let dated = stream.map { stream in dateBoundaries.compactMap { stream.dates.time(at: $0) } } ?? []
        boundaries = (timeBoundaries + dated).sorted()
    }

    /// How far past a boundary the report that reaches it ends.
    private static let boundaryOvershoot = MediaTime(seconds: 1e-6)

    public func skipInterstitial() {}

    public func stop() {
        handle.command(["stop"])
        resetState()
        emit(.statusChanged(.idle))
    }

    // MARK: - Events

    private func drainEvents() {
        while let event = handle.nextEvent() { process(event) }
    }

    private func process(_ event: MPVEvent) {
        switch event {
        case .fileLoaded:
            isFileLoaded = true
            duration = handle.double("duration").map { MediaTime(seconds: $0) }
            readTracks()
            emit(.loaded(streamType: duration == nil ? .live : .onDemand, duration: duration,
                         variants: currentVariant.map { [$0] } ?? []))
            updateStatus()
        case .playbackRestart:
            if let target = jumpTarget {
                jumpTarget = nil
                playhead = handle.double("time-pos").map { MediaTime(seconds: $0) } ?? target
                if wantsToPlay, status == .playing { playedFrom = playhead }
            }
            if let target = seekTarget {
                let position = handle.double("time-pos").map { MediaTime(seconds: $0) } ?? target
                // A key frame outside the tolerances, or the restart of a seek this one replaced: once, seek exactly.
                let slack = MediaTime(seconds: 0.1)
                if let window = seekWindow, !seekResent,
                   position < window.lowerBound - slack || position > window.upperBound + slack {
                    seekResent = true
                    handle.command(["seek", String(target.seconds), "absolute+exact"])
                    return
                }
                seekTarget = nil
                seekWindow = nil
                playhead = position
                emit(.seekEnded(at: position, completed: true))
            }
            updateStatus()
        case .endFile(let reason, let code):
            // MPV_END_FILE_REASON_ERROR: the source could not be played.
            if reason == 4 {
                fail(EngineError(kind: .decoding, message: "libmpv: \(MPVError(code: code, context: "playback"))",
                                 isFatal: true))
            }
        case .propertyChange(let name, let value):
            propertyChanged(name, value)
        case .logMessage(let prefix, _, let text):
            decoderError(text, from: prefix)
        case .shutdown, .startFile, .seek, .other:
            break
        }
    }

    private func propertyChanged(_ name: String, _ value: MPVValue) {
        switch name {
        case "time-pos":
            guard let seconds = value.double else { return }
            if jumpTarget != nil { return }
            noteTimestampJump(to: MediaTime(seconds: seconds))
            if jumpOverSkippedRange(from: MediaTime(seconds: seconds)) { return }
            reportProgress(to: MediaTime(seconds: seconds))
            playhead = MediaTime(seconds: seconds)
            if status == .playing, playedFrom == nil { playedFrom = playhead }
            if !hasShownFirstFrame, isFileLoaded, wantsToPlay, seconds > 0 || status == .playing { firstFrame() }
        case "duration":
            duration = value.double.map { MediaTime(seconds: $0) }
        case "estimated-vf-fps":
            if let fps = value.double, fps.isFinite, fps >= 1 { frameRate = fps }
        case "paused-for-cache":
            let paused = value.flag ?? false
            guard paused != isPausedForCache else { return }
            isPausedForCache = paused
            if paused, hasShownFirstFrame {
                stallStartedAt = stopwatch.elapsed
                stallCount += 1
                emit(.stallBegan(at: playhead))
            } else if !paused, let started = stallStartedAt {
                let stalled = stopwatch.elapsed - started
                stallStartedAt = nil
                stallDuration += stalled
                emit(.stallEnded(after: stalled))
            }
            updateStatus()
        case "demuxer-cache-duration":
            cacheDuration = value.double ?? 0
        case "video-bitrate":
            videoBitRate = value.double
        case "width":
            width = value.int
        case "height":
            height = value.int
        case "frame-drop-count", "decoder-frame-drop-count":
            droppedFrames = (handle.int("frame-drop-count") ?? 0) + (handle.int("decoder-frame-drop-count") ?? 0)
        case "track-list/count":
            readTracks()
        case "eof-reached":
            guard value.flag == true, isFileLoaded, status != .ended else { return }
            closePlayedRange(at: duration ?? playhead)
            status = .ended
            emit(.statusChanged(.ended))
            emit(.ended)
        case "aid", "sid":
            readTracks()
        default:
            break
        }
    }

    /// Reports, as a non-fatal decoding error, a frame whose position leaps from the last one's during playback
    /// with no seek asked for: timestamps that jump (a segment muxed with another time base, a missing
    /// discontinuity tag), which only a decoder sees.
    /// A leap is reported once the frame after it continues from where it landed: libmpv may show a position of 0
    /// for a frame while it resynchronises, which is no jump of the media's.
    private func noteTimestampJump(to position: MediaTime) {
        defer { lastFramePosition = status == .playing && seekTarget == nil ? position : nil }
        guard status == .playing, seekTarget == nil, let last = lastFramePosition else {
            pendingLeap = nil
            return
        }
        // A frame a little before the last one (a decoder resuming after a broken frame) is no jump.
        let continues = abs((position - last).seconds) <= 1
        if let leap = pendingLeap, continues {
            pendingLeap = nil
            let jump = (leap.to - leap.from).seconds
            let signed = (jump > 0 ? "+" : "") + String(format: "%.2f", jump)
            emit(.error(EngineError(kind: .decoding, message: "the media's timestamps jump by \(signed) s after \(leap.from) (no seek asked for)",
                                    isFatal: false)))
        } else if !continues {
            pendingLeap = (from: pendingLeap?.from ?? last, to: position)
        }
    }

    /// The most libmpv error messages reported in a second: a corrupt stream can make its decoder complain at
    /// every frame.
    private static let errorsPerSecond = 10

    /// Reports one of libmpv's error messages (a decoder's complaint about a corrupt frame, a demuxer's about a
    /// broken packet) as a non-fatal decoding error, up to ``errorsPerSecond``; the next one reported says how many
    /// were left out.
    private func decoderError(_ text: String, from prefix: String) {
        let second = stopwatch.elapsed / .seconds(1)
        if Duration.seconds(second.rounded(.down)) != errorSecond {
            errorSecond = .seconds(second.rounded(.down))
            errorsThisSecond = 0
        }
        guard errorsThisSecond < Self.errorsPerSecond else {
            errorsLeftOut += 1
            return
        }
        errorsThisSecond += 1
        let leftOut = errorsLeftOut > 0 ? " (and \(errorsLeftOut) more before it)" : ""
        errorsLeftOut = 0
        emit(.error(EngineError(kind: .decoding, message: "libmpv \(prefix): \(text)\(leftOut)", isFatal: false)))
    }

    /// Jumps over the skipped range the next frames would enter, from a frame shown at `position`: the range ends the
    /// item when it reaches an on-demand item's end. Returns whether it jumped.
    private func jumpOverSkippedRange(from position: MediaTime) -> Bool {
        guard !skippedRanges.isEmpty, isFileLoaded, seekTarget == nil else { return false }
        let lookahead = MediaTime(seconds: 2 / frameRate)
        guard let range = skippedRanges.ranges.first(where: { $0.end > position && $0.start <= position + lookahead })
        else { return false }
        closePlayedRange(at: max(position, min(range.start, position + MediaTime(seconds: 1 / frameRate))))
        progressedTo = nil
        emit(.rangeSkipped(range))
        if let duration, range.end >= duration {
            handle.set("pause", "yes")
            playhead = duration
            status = .ended
            emit(.statusChanged(.ended))
            emit(.ended)
            return true
        }
        jumpTarget = range.end
        lastFramePosition = nil
        playhead = range.end
        handle.command(["seek", String(range.end.seconds), "absolute+exact"])
        return true
    }

    /// Reports the playhead's movement to `position`, when it continues the last one during playback.
    private func reportProgress(to position: MediaTime) {
        guard reportsProgress, status == .playing, seekTarget == nil else {
            progressedTo = nil
            return
        }
        // A frame comes every few hundredths of a second: a longer step is a discontinuity, not a movement.
        if var from = progressedTo, position > from, position - from < MediaTime(seconds: 1) {
            for boundary in boundaries where boundary > from && boundary + Self.boundaryOvershoot < position {
                let end = boundary + Self.boundaryOvershoot
                let lag = Duration.seconds((position - end).seconds / rate)
                emit(.progressed(PlaybackProgress(from: from, to: end, fromDate: stream?.date(at: from),
                                                  toDate: stream?.date(at: end), rate: rate, lag: lag)))
                from = end
            }
            emit(.progressed(PlaybackProgress(from: from, to: position, fromDate: stream?.date(at: from),
                                              toDate: stream?.date(at: position), rate: rate)))
        }
        progressedTo = position
    }

    private func fail(_ failure: EngineError) {
        error = failure
        status = .failed
        emit(.error(failure))
        emit(.statusChanged(.failed))
    }

    private func firstFrame() {
        hasShownFirstFrame = true
        let from = max(loadRequestedAt ?? .zero, playRequestedAt ?? .zero)
        let startup = stopwatch.elapsed - from
        startupTime = startup
        playedFrom = playhead
        emit(.firstFrame(startupTime: startup))
        updateStatus()
    }

    /// Reads the audio and subtitle tracks (`track-list`), and which ones are selected.
    private func readTracks() {
        let count = handle.int("track-list/count") ?? 0
        var options: [MediaOption] = []
        var selected: [MediaOption.Kind: MediaOption.ID] = [:]
        for index in 0..<count {
            let prefix = "track-list/\(index)/"
            let kind: MediaOption.Kind
            switch handle.string(prefix + "type") {
            case "audio": kind = .audio
            case "sub": kind = .subtitles
            default: continue
            }
            guard let track = handle.int(prefix + "id") else { continue }
            let language = handle.string(prefix + "lang")
            let id = "\(kind.rawValue):\(track)"
            let option = MediaOption(
                id: id, kind: kind, name: handle.string(prefix + "title") ?? language ?? "Track \(track)",
                language: language, isDefault: handle.flag(prefix + "default") ?? false,
                isForced: handle.flag(prefix + "forced") ?? false)
            let isSelected = handle.flag(prefix + "selected") == true
            if isSelected { selected[kind] = id }
            // FFmpeg lists a rendition muxed in every variant once per variant: one option each, the selected copy
            // when it is one.
            if let twin = options.firstIndex(where: { $0.kind == kind && $0.language == language && $0.name == option.name }) {
                if isSelected { options[twin] = option }
                continue
            }
            options.append(option)
        }
        mediaOptions = options
        selectedMediaOptions = selected
    }

    // MARK: - State

    private func updateStatus() {
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

    private func closePlayedRange(at end: MediaTime) {
        guard let start = playedFrom else { return }
        playedFrom = nil
        if end > start { playedRanges.insert(MediaTimeRange(start: start, end: end)) }
    }

    private func playedSoFar(at current: MediaTime) -> MediaTimeRangeSet {
        var ranges = playedRanges
        if let start = playedFrom, current > start { ranges.insert(MediaTimeRange(start: start, end: current)) }
        return ranges
    }

    private func resetState() {
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
        stallStartedAt = nil
        stallCount = 0
        stallDuration = .zero
        isPausedForCache = false
        mediaOptions = []
        selectedMediaOptions = [:]
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
        handle.set("pause", "yes")
    }

    private func emit(_ event: EngineEvent) {
        broadcaster.yield(event)
    }
}
#endif
