/// Where a break plays in its content (`[BREAKPOSITION]`, OpenAVT's `adRoll`).
public enum AdBreakPosition: Int, Sendable, Hashable {
    case preRoll = 1
    case midRoll = 2
    case postRoll = 3
}

/// What plays, ad-wise, as the playhead moves: what telemetry reports (the command-line tool hands these to the
/// instrument's ads tracker) and what a user interface shows. Derived from the same progress reports as the
/// beacons, so that a seek out of an ad ends it and a stall inside one is an ad buffering.
public enum AdPlaybackEvent: Sendable, Hashable {
    /// The playhead entered a break.
    case breakBegan(AdPod, position: AdBreakPosition)
    /// The playhead entered an ad (its 0-based place in the break).
    case adBegan(Ad, index: Int, pod: AdPod)
    /// The playhead moved inside the ad: how far from its start.
    case adProgressed(Ad, position: AdTime)
    /// The playhead left the ad: at its end (`completed`), or elsewhere (a seek).
    case adEnded(Ad, completed: Bool)
    /// The viewer skipped the ad (``AdBeaconingSession/reportSkip()``).
    case adSkipped(Ad)
    /// The playhead left the break.
    case breakEnded(AdPod)
    /// The ad paused or resumed.
    case adPaused(Ad)
    case adResumed(Ad)
    /// Playback waited for data inside the ad, or recovered.
    case adBufferBegan(Ad)
    case adBufferEnded(Ad)
    /// Playback failed while the ad played.
    case adFailed(Ad, String)
}
