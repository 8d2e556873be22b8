extension Player {
    /// Starts or resumes playback (at the end of an item, plays it again).
    public func play() {
        if session?.hasEnded == true || session?.hasFailed == true {
            replay()
            return
        }
        wantsToPlay = true
        session?.send { await $0.play() }
        publish()
        notifyProperties()
    }

    /// Pauses.
    public func pause() {
        wantsToPlay = false
        session?.send { await $0.pause() }
        publish()
        notifyProperties()
    }

    /// Pauses while playing; plays otherwise.
    public func togglePlayPause() {
        if playbackState == .playing { pause() } else { play() }
    }

    /// Whether ``replay()`` does something: the current item ended or failed.
    public func canReplay() -> Bool {
        session?.hasEnded == true || session?.hasFailed == true
    }

    /// Plays the current item again from the start after it ended, or loads it again after it failed. Either way
    /// this is a new playback session: its trackers are disabled and enabled again.
    public func replay() {
        guard canReplay(), let item = session?.item else { return }
        wantsToPlay = true
        item.error = nil
        startSession(for: item)
    }

    /// The interstitial that plays now, if one does: its event, assets, the asset that plays and the time played.
    public var currentInterstitial: InterstitialStatus? { engineSnapshot.interstitial }

    /// Whether the interstitial that plays may be skipped now (`X-RESTRICT` without `SKIP`, and its skip control
    /// shown).
    public var canSkipInterstitial: Bool { currentInterstitial?.canSkip ?? false }

    /// Skips the interstitial that plays, where it is allowed; returns whether the skip was asked of the engine (not
    /// when the interstitial known to play may not be skipped now; the engine ignores a skip when none plays, or
    /// one that began a moment ago and turns out restricted).
    @discardableResult
    public func skipInterstitial() -> Bool {
        guard let session, currentInterstitial.map(\.canSkip) ?? true else { return false }
        session.send { await $0.skipInterstitial() }
        return true
    }

    /// The speeds the current stream allows: 1 on live streams, at most 1 near the live edge of a DVR stream,
    /// 0.1…2 otherwise.
    public var playbackSpeedRange: ClosedRange<Double> {
        PlaybackSpeedRange.allowed(for: streamType, isAtLiveEdge: isAtLiveEdge)
    }

    /// Whether the playhead is at the live edge of a live or DVR stream.
    public var isAtLiveEdge: Bool {
        guard streamType == .live || streamType == .dvr else { return false }
        return seekableTimeRange.end - time <= configuration.liveEdgeTolerance
    }

    /// Asks for a playback speed; the speed in effect (``playbackSpeed``) stays within ``playbackSpeedRange``,
    /// and follows it as it changes (reaching the live edge of a DVR stream brings it back to 1).
    public func setDesiredPlaybackSpeed(_ speed: Double) {
        desiredPlaybackSpeed = speed.isFinite && speed > 0 ? speed : 1
        applyPlaybackSpeed()
    }

    func applyPlaybackSpeed() {
        let speed = PlaybackSpeedRange.clamp(desiredPlaybackSpeed, for: streamType, isAtLiveEdge: isAtLiveEdge)
        guard speed != playbackSpeed else { return }
        playbackSpeed = speed
        session?.send { await $0.setRate(speed) }
    }
}
