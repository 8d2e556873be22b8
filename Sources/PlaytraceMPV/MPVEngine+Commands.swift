#if MPV
import Foundation
public import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytraceNetwork
public import PlaytracePlayer

/// What the Player asks of the engine: play, pause, seek, rate, variant limits, skipped ranges, volume, media
/// options, progress reports and boundaries, stop.
extension MPVEngine {
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
        if let previous = pendingSeek?.target { emit(.seekEnded(at: previous, completed: false)) }
        closePlayedRange(at: playhead)
        jumpTarget = nil
        var target = unskipped(position)
        if interstitial != nil { return seekDuringInterstitial(to: target) }
        // A forward seek past a JUMP-restricted interstitial goes to it first; the seek's target follows its end.
        var exact = target != position || toleranceBefore == .zero && toleranceAfter == .zero
        if configuration.playsInterstitials, let restricted = schedule.jumpRestricted(from: playhead, to: target) {
            seekAfterInterstitial = target
            jumpInterstitial = restricted.event.id
            target = restricted.event.start
            exact = true
        } else {
            jumpInterstitial = nil
        }
        schedule.rearm(after: target)
        // A seek that lands in a skipped range lands exactly at its end (a key frame before it would show some).
        pendingSeek = PendingSeek(target: target,
                                  window: exact ? target...target : (target - toleranceBefore)...(target + toleranceAfter))
        emit(.seekBegan(target: target))
        if let stream, stream.isLive, !isCached(target) {
            // FFmpeg cannot seek in a live stream: the primary is loaded again at the segment that covers the target.
            pendingSeek?.window = nil
            loadPrimary(primaryURL ?? stream.url, at: target)
            return
        }
        seekPrimary(to: target, exact: exact)
    }

    /// Sends libmpv a seek to a position of the engine's timeline.
    func seekPrimary(to target: MediaTime, exact: Bool = true) {
        sendSeek(to: target, exact: exact, resent: false)
    }

    /// Sends the seek to libmpv and arms the watchdog (`SeekWatchdog`) for it.
    func sendSeek(to target: MediaTime, exact: Bool, resent: Bool) {
        handle.command(["seek", String((target - origin.time).seconds), exact ? "absolute+exact" : "absolute+keyframes"])
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
        guard enabled != progress.reportsProgress else { return }
        progress.reportsProgress = enabled
        progressedTo = nil
    }

    /// libmpv cannot stop the playhead at a point: progress is reported at each decoded frame's position (25 times a
    /// second for 25 fps video); a frame's movement that crosses a boundary is reported in two parts, the first
    /// ending a microsecond past the boundary (so that rounding never leaves it outside), its `lag` saying how long
    /// ago (at most a frame) the playhead was there. Date boundaries apply once the stream's playlist is read
    /// (``init(configuration:clock:transport:)``); interstitial ones split an interstitial's movements the same way.
    public func setProgressBoundaries(_ boundaries: [PlaybackBoundary]) {
        progress.set(boundaries)
        placeBoundaries()
    }

    /// Places the boundaries on the media timeline (date ones once the stream's dates are known).
    func placeBoundaries() {
        let dated = stream.map { stream in progress.dates.compactMap { stream.dates.time(at: $0) } } ?? []
        boundaries = (progress.times + dated).sorted()
    }


    public func stop() {
        handle.command(["stop"])
        resetState()
        emit(.statusChanged(.idle))
    }
}
#endif
