#if MPV
import Foundation
import PlaytraceCore
import PlaytraceHLSPlayback
import PlaytraceNetwork
import PlaytracePlayer

/// The engine's state as libmpv reports it: the status, the played ranges, a reset at each load.
extension MPVEngine {
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
        cacheDuration = .zero
        isFileLoaded = false
        hasShownFirstFrame = false
        loadRequestedAt = nil
        playRequestedAt = nil
        startupTime = nil
        pendingSeek = nil
        disarmSeekWatchdog()
        stalls = StallTally()
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
        origin = LiveOrigin()
        adBreaks = AdBreakLedger()
        refreshTask?.cancel()
        refreshTask = nil
        closeDASH()
        isLoadAnnounced = false
        handle.set("pause", "yes")
        handle.set("speed", String(rate))
    }

    func emit(_ event: EngineEvent) {
        broadcaster.yield(event)
    }
}
#endif
