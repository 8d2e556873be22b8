import PlaytraceCore

/// What became of a player-initiated report (``AdBeaconingSession/reportPause()`` …).
public enum AdReportOutcome: Sendable, Hashable {
    /// Every URL of the event's beacons was delivered.
    case delivered
    /// Handed to the outbox, which keeps trying: a URL failed for now, or its first attempt did not end within
    /// ``AdBeaconingSession/reportTimeout``.
    case queued
    /// A URL was refused for good.
    case failed
    /// No ad plays under the playhead, or the ad has no event of this type: nothing was sent.
    case nothingToReport
}

extension AdBeaconingSession {
    /// Reports that the viewer did what `type` names (`pause`, `mute`…) while the ad under the playhead plays:
    /// every event of that type of the ad is sent, each report a new occurrence. Returns once the first attempt at
    /// each URL ended (at most ``reportTimeout``): delivered, still queued, failed, or nothing to report.
    public func report(_ type: TrackingEventType) async -> AdReportOutcome {
        guard let position = lastPosition else { return .nothingToReport }
        let keys = report(type, at: position)
        guard !keys.isEmpty else { return .nothingToReport }
        if !book.firstAttemptsEnded(keys) {
            let id = reportWaiters.makeID()
            let timeout = reportTimeout
            let stopwatch = stopwatch
            Task { [weak self] in
                try? await stopwatch.sleep(for: timeout)
                self?.reportWaiters.resume(id)
            }
            await withCheckedContinuation { reportWaiters.wait(id, for: keys, continuation: $0) }
        }
        return book.outcome(of: keys)
    }

    public func reportMute() async -> AdReportOutcome { await report(.mute) }
    public func reportUnmute() async -> AdReportOutcome { await report(.unmute) }
    public func reportPause() async -> AdReportOutcome { await report(.pause) }
    public func reportResume() async -> AdReportOutcome { await report(.resume) }
    public func reportRewind() async -> AdReportOutcome { await report(.rewind) }
    public func reportSkip() async -> AdReportOutcome {
        playerStateChanged { .adSkipped($0) }
        return await report(.skip)
    }
    public func reportPlayerExpand() async -> AdReportOutcome { await report(.playerExpand) }
    public func reportPlayerCollapse() async -> AdReportOutcome { await report(.playerCollapse) }

    /// Sends a player-initiated event the Player's own state change implies (from ``AdTracker``), without waiting.
    func playerDid(_ type: TrackingEventType) {
        switch type {
        case .pause: playerStateChanged { .adPaused($0) }
        case .resume: playerStateChanged { .adResumed($0) }
        default: break
        }
        guard let position = lastPosition else { return }
        report(type, at: position)
    }

    /// Playback failed (from ``AdTracker``): said for the ad that played, if any, and in the log.
    func playbackFailed(_ description: String) {
        guard let placement, let adID = placement.adID, placedAd != nil else { return }
        fates.ads[placement.podID, default: [:]][adID] = .failed(description)
        playerStateChanged { .adFailed($0, description) }
        log("playback failed during an ad: \(description)", isError: true)
    }

    /// Playback began or stopped waiting for data (from ``AdTracker``).
    func bufferingChanged(_ isBuffering: Bool) {
        playerStateChanged { isBuffering ? .adBufferBegan($0) : .adBufferEnded($0) }
    }

    /// Resumes the reports whose beacons all had their first attempt.
    func resumeReportWaiters() {
        let book = book
        reportWaiters.resume { book.firstAttemptsEnded($0) }
    }
}
