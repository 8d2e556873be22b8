#if MPV
import Foundation
import PlaytraceCore
import PlaytracePlayer

/// libmpv's events and observed properties, turned into the engine's state and events.
extension MPVEngine {
    func drainEvents() {
        var batch: [MPVEvent] = []
        while let event = handle.nextEvent() { batch.append(event) }
        // libmpv hands its log lines after its property changes: the segment FFmpeg opened, which places a live
        // stream's time, is read before the frames that follow it.
        if !origin.isPlaced {
            for case .logMessage("ffmpeg/demuxer", let level, let text) in batch where level != "error" { readerLogged(text) }
        }
        for event in batch { process(event) }
    }

    func process(_ event: MPVEvent) {
        switch event {
        case .startFile:
            pendingStarts = max(0, pendingStarts - 1)
        case .fileLoaded where pendingStarts > 0, .playbackRestart where pendingStarts > 0, .endFile where pendingStarts > 0:
            // The end of the file an asset or the primary replaced.
            break
        case .fileLoaded where interstitial != nil:
            interstitialAssetLoaded()
        case .fileLoaded where isResumingPrimary:
            readTracks()
            updateStatus()
        case .fileLoaded:
            isFileLoaded = true
            duration = stream?.isLive == true ? nil : handle.double("duration").map { MediaTime(seconds: $0) }
            readTracks()
            announceLoaded()
            updateStatus()
        case .playbackRestart where interstitial != nil:
            break
        case .playbackRestart:
            playbackRestarted()
        case .endFile(let reason, let code) where interstitial != nil:
            // An asset that cannot be played is skipped.
            if reason == 4 { finishAsset(.failed("libmpv: \(MPVError(code: code, context: "playback"))")) }
        case .endFile(let reason, let code):
            // MPV_END_FILE_REASON_ERROR: the source could not be played.
            if reason == 4 {
                fail(EngineError(kind: .decoding, message: "libmpv: \(MPVError(code: code, context: "playback"))",
                                 isFatal: true))
            }
        case .propertyChange(let name, let value):
            propertyChanged(name, value)
        case .logMessage(let prefix, let level, let text):
            // (FFmpeg's reader lines below the error level were read first, by ``drainEvents()``.)
            if level == "error" || level == "fatal" { decoderError(text, from: prefix) }
        case .shutdown, .seek, .other:
            break
        }
    }

    /// A seek (the engine's own jump, or one asked for) landed, or a file just loaded began to play.
    func playbackRestarted() {
        isResumingPrimary = false
        disarmSeekWatchdog()
        if let target = jumpTarget {
            jumpTarget = nil
            playhead = primaryPosition() ?? target
            if wantsToPlay, status == .playing { playedFrom = playhead }
        }
        if let seek = pendingSeek {
            let target = seek.target
            let position = primaryPosition() ?? target
            // A key frame outside the tolerances, or the restart of a seek this one replaced: once, seek exactly.
            let slack = MediaTime(seconds: 0.1)
            if let window = seek.window, !seek.isResent,
               position < window.lowerBound - slack || position > window.upperBound + slack {
                pendingSeek?.isResent = true
                seekPrimary(to: target)
                return
            }
            pendingSeek = nil
            playhead = position
            emit(.seekEnded(at: position, completed: true))
            // A seek sent to a JUMP-restricted interstitial: it plays now (libmpv may land a frame past its start).
            if let id = jumpInterstitial {
                jumpInterstitial = nil
                if let entry = schedule.entries[id], !entry.hasPlayed {
                    playhead = entry.event.start
                    beginInterstitial(entry)
                }
            }
        }
        updateStatus()
    }

    /// Whether the seek or jump under way has landed at `seconds` though libmpv said nothing: a track change during a
    /// seek (the Player applying its audio choice again) makes libmpv restart without a playback-restart event, and
    /// waiting for one would stop the engine's playhead for good. A frame within the seek's window, libmpv no longer
    /// seeking, is the landing.
    func landedWithoutRestart(at position: MediaTime) -> Bool {
        guard let target = jumpTarget ?? pendingSeek?.target else { return false }
        let window = jumpTarget == nil ? pendingSeek?.window ?? target...target : target...target
        let slack = MediaTime(seconds: max(0.1, 2 / frameRate))
        guard position >= window.lowerBound - slack, position <= window.upperBound + slack else { return false }
        return handle.flag("seeking") == false
    }

    /// The properties that describe the file that plays: until a file just loaded starts, their changes are the
    /// previous file's.
    private static let fileProperties: Set<String> = ["time-pos", "duration", "track-list/count", "eof-reached", "aid", "sid"]

    func propertyChanged(_ name: String, _ value: MPVValue) {
        if pendingStarts > 0, Self.fileProperties.contains(name) { return }
        if interstitial != nil, Self.fileProperties.contains(name) { return assetPropertyChanged(name, value) }
        switch name {
        case "time-pos":
            // A live stream's time means nothing until the engine knows where libmpv began.
            guard let time = value.double else { return }
            placeOriginWithoutLog()
            guard origin.isPlaced else { return }
            let position = MediaTime(seconds: time) + origin.time
            if landedWithoutRestart(at: position) { playbackRestarted() }
            if jumpTarget != nil { return }
            noteTimestampJump(to: position)
            if reachInterstitial(from: position) { return }
            if jumpOverSkippedRange(from: position) { return }
            reportProgress(to: position)
            playhead = position
            // A frame shown before a seek lands (one asked while libmpv loaded the primary) starts no played range.
            if status == .playing, playedFrom == nil, pendingSeek == nil { playedFrom = playhead }
            if !hasShownFirstFrame, isFileLoaded, wantsToPlay, position > .zero || status == .playing {
                firstFrame()
                _ = beginInterstitialAtStart()
            }
        case "duration":
            // libmpv gives a live stream the duration of what FFmpeg has listed so far.
            guard stream?.isLive != true else { return }
            duration = value.double.map { MediaTime(seconds: $0) }
        case "estimated-vf-fps":
            if let fps = value.double, fps.isFinite, fps >= 1 { frameRate = fps }
        case "paused-for-cache":
            let paused = value.flag ?? false
            guard paused != isPausedForCache else { return }
            isPausedForCache = paused
            if paused, hasShownFirstFrame {
                if stalls.begin(at: stopwatch.elapsed) { emit(.stallBegan(at: playhead)) }
            } else if !paused, let stalled = stalls.end(at: stopwatch.elapsed) {
                emit(.stallEnded(after: stalled))
            }
            updateStatus()
        case "demuxer-cache-duration":
            cacheDuration = value.double.map { MediaTime(seconds: $0) } ?? .zero
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
            // libmpv's end of file long before the stream's end: FFmpeg 5.1 cannot seek in fragmented MP4 HLS, and a
            // seek or start position there sometimes lands at its end. The item ends, and says why.
            if let duration, (duration - playhead).seconds > 1 {
                emit(.error(EngineError(kind: .decoding, message: "libmpv reached the end of the stream at \(playhead) of \(duration) "
                    + "(FFmpeg, which libmpv reads HLS with, fails to seek in some streams: fragmented MP4 on FFmpeg 5.1)", isFatal: false)))
                closePlayedRange(at: playhead)
            } else {
                closePlayedRange(at: duration ?? playhead)
            }
            if let duration { playhead = duration }
            if beginPostRoll() { return }
            status = .ended
            emit(.statusChanged(.ended))
            emit(.ended)
        case "aid", "sid":
            readTracks()
        default:
            break
        }
    }

    /// A change of the asset that plays in an interstitial: its position, its end.
    private func assetPropertyChanged(_ name: String, _ value: MPVValue) {
        switch name {
        case "time-pos":
            if let seconds = value.double { interstitialMoved(to: MediaTime(seconds: seconds)) }
        case "eof-reached":
            if value.flag == true { interstitialAssetReachedEnd() }
        default:
            break
        }
    }

    /// Reports, as a non-fatal decoding error, a frame whose position leaps from the last one's during playback
    /// with no seek asked for: timestamps that jump (a segment muxed with another time base, a missing
    /// discontinuity tag), which only a decoder sees.
    /// A leap is reported once the frame after it continues from where it landed: libmpv may show a position of 0
    /// for a frame while it resynchronises, which is no jump of the media's.
    func noteTimestampJump(to position: MediaTime) {
        defer { lastFramePosition = status == .playing && pendingSeek == nil ? position : nil }
        guard status == .playing, pendingSeek == nil, let last = lastFramePosition else {
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
    static let errorsPerSecond = 10

    /// Reports one of libmpv's error messages (a decoder's complaint about a corrupt frame, a demuxer's about a
    /// broken packet) as a non-fatal decoding error, up to ``errorsPerSecond``; the next one reported says how many
    /// were left out. The null outputs' complaints (about the engine pausing around a `loadfile`) are no fault of
    /// the media's, and are left out; the stream layer's (a file that cannot be opened) are network errors.
    func decoderError(_ text: String, from prefix: String) {
        guard !prefix.hasPrefix("ao/null"), !prefix.hasPrefix("vo/null") else { return }
        guard let heldBack = errorLimit.admit(at: stopwatch.elapsed) else { return }
        let leftOut = heldBack > 0 ? " (and \(heldBack) more before it)" : ""
        let kind: EngineError.Kind = prefix == "stream" ? .network : .decoding
        emit(.error(EngineError(kind: kind, message: "libmpv \(prefix): \(text)\(leftOut)", isFatal: false)))
    }

    /// Jumps over the skipped range the next frames would enter, from a frame shown at `position`: the range ends the
    /// item when it reaches an on-demand item's end. Returns whether it jumped.
    func jumpOverSkippedRange(from position: MediaTime) -> Bool {
        guard !skippedRanges.isEmpty, isFileLoaded, pendingSeek == nil else { return false }
        let lookahead = MediaTime(seconds: 2 / frameRate)
        // A frame less than a frame before a range's end is the range's end: libmpv lands an exact seek (or a start)
        // there a few milliseconds early, its timeline led by the audio, and jumping again would never end.
        let frame = MediaTime(seconds: 1 / frameRate)
        guard let range = skippedRanges.ranges.first(where: { $0.end - frame > position && $0.start <= position + lookahead })
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
        seekPrimary(to: range.end)
        return true
    }

    /// Reports the playhead's movement to `position`, when it continues the last one during playback.
    func reportProgress(to position: MediaTime) {
        guard progress.reportsProgress, status == .playing, pendingSeek == nil else {
            progressedTo = nil
            return
        }
        // A frame comes every few hundredths of a second: a longer step is a discontinuity, not a movement.
        if var from = progressedTo, position > from, position - from < MediaTime(seconds: 1) {
            for boundary in boundaries where boundary > from && boundary + ProgressBoundaries.overshoot < position {
                let end = boundary + ProgressBoundaries.overshoot
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

    func fail(_ failure: EngineError) {
        error = failure
        status = .failed
        emit(.error(failure))
        emit(.statusChanged(.failed))
    }

    func firstFrame() {
        hasShownFirstFrame = true
        let from = max(loadRequestedAt ?? .zero, playRequestedAt ?? .zero)
        let startup = stopwatch.elapsed - from
        startupTime = startup
        playedFrom = playhead
        // The variant that plays, as the headless engine says it at its first frame (libmpv never switches).
        if let variant = currentVariant { emit(.variantSwitched(from: nil, to: variant, reason: .initial)) }
        emit(.firstFrame(startupTime: startup))
        updateStatus()
    }

    /// Reads the audio and subtitle tracks (`track-list`), and which ones are selected.
    func readTracks() {
        let count = handle.int("track-list/count") ?? 0
        var options: [MediaOption] = []
        var copies: [MediaOption.ID: [Int]] = [:]
        var selected: [MediaOption.Kind: MediaOption.ID] = [:]
        var videoTracks = 0
        var identities: [String: MediaOption.ID] = [:]
        for index in 0..<count {
            let prefix = "track-list/\(index)/"
            let kind: MediaOption.Kind
            switch handle.string(prefix + "type") {
            case "audio": kind = .audio
            case "sub": kind = .subtitles
            case "video":
                if handle.flag(prefix + "selected") == true { playingVariantOrdinal = videoTracks }
                videoTracks += 1
                continue
            default: continue
            }
            guard let track = handle.int(prefix + "id") else { continue }
            let language = handle.string(prefix + "lang")
            let title = handle.string(prefix + "title")
            // FFmpeg lists a rendition muxed in every variant once per variant, in the variants' order: one option,
            // named by its first copy, whose copies are all its tracks. Copies are alike in kind, language and title
            // (a variant's own audio often has neither: its copies are still one option, not one per variant).
            let key = "\(kind.rawValue)\u{0}\(language ?? "")\u{0}\(title ?? "")"
            let id = identities[key] ?? "\(kind.rawValue):\(track)"
            identities[key] = id
            let name = title ?? language ?? "Track \(track)"
            if copies[id] == nil {
                options.append(MediaOption(
                    id: id, kind: kind, name: name, language: language, isDefault: handle.flag(prefix + "default") ?? false,
                    isForced: handle.flag(prefix + "forced") ?? false))
            }
            copies[id, default: []].append(track)
            if handle.flag(prefix + "selected") == true { selected[kind] = id }
        }
        mediaOptions = options
        renditionTracks = copies
        selectedMediaOptions = selected
    }

    /// The track of a rendition to select: its copy in the variant that plays (FFmpeg reads only that variant's
    /// streams: another's copy would leave libmpv waiting for audio that never comes), else its first.
    func track(of id: MediaOption.ID) -> Int? {
        guard let tracks = renditionTracks[id], let first = tracks.first else { return nil }
        return tracks.count > playingVariantOrdinal ? tracks[playingVariantOrdinal] : first
    }
}
#endif
