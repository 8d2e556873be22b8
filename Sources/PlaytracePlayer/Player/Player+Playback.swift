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

    /// Whether ``replay()`` does something: the current item ended or failed, or the player has items but none is
    /// current (after `currentItem = nil`).
    public func canReplay() -> Bool {
        guard !items.isEmpty else { return false }
        return session == nil || session?.hasEnded == true || session?.hasFailed == true
    }

    /// Plays the current item again from the start after it ended, loads it again after it failed, or plays the
    /// first item when none is current. Either way this is a new playback session: its trackers are disabled and
    /// enabled again (Pillarbox restarts an ended item in the same session: see "Coming from Pillarbox").
    public func replay() {
        guard canReplay(), let item = session?.item ?? items.first else { return }
        wantsToPlay = true
        item.error = nil
        startSession(for: item)
    }

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
    /// 0.1…2 otherwise; 1 alone without an item or while the stream's type is unknown.
    public var playbackSpeedRange: ClosedRange<Double> {
        guard session != nil else { return 1...1 }
        return PlaybackSpeedRange.allowed(for: streamType, isAtLiveEdge: isAtLiveEdge)
    }

    /// Whether the playhead is at the live edge of a live or DVR stream.
    public var isAtLiveEdge: Bool {
        guard streamType == .live || streamType == .dvr else { return false }
        return seekableTimeRange.end - time <= configuration.liveEdgeTolerance
    }

    /// The playback speed: reading it gives the speed in effect (``effectivePlaybackSpeed``); setting it asks for
    /// a speed (``setDesiredPlaybackSpeed(_:)``).
    ///
    /// ```swift
    /// player.playbackSpeed = 1.5   // 1.5 on demand; 1 on a live stream, and 1.5 again on the next on-demand item
    /// ```
    public var playbackSpeed: Double {
        get { effectivePlaybackSpeed }
        set { setDesiredPlaybackSpeed(newValue) }
    }

    /// Asks for a playback speed. The speed in effect stays within ``playbackSpeedRange`` and follows it as it
    /// changes; the desired speed is remembered, so an item that allows it gets it (reaching the live edge of a
    /// DVR stream brings the speed back to 1; leaving it restores the desired speed).
    /// - Parameter speed: the speed wanted (a non-finite or non-positive one counts as 1).
    public func setDesiredPlaybackSpeed(_ speed: Double) {
        desiredPlaybackSpeed = speed.isFinite && speed > 0 ? speed : 1
        applyPlaybackSpeed()
    }

    func applyPlaybackSpeed() {
        let range = playbackSpeedRange
        let speed = min(max(desiredPlaybackSpeed, range.lowerBound), range.upperBound)
        guard speed != effectivePlaybackSpeed else { return }
        effectivePlaybackSpeed = speed
        session?.send { await $0.setRate(speed) }
    }
}
