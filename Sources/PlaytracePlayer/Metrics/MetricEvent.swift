public import PlaytraceCore

/// Something measurable that happened to an item while it played, with when and where it happened.
///
/// Pillarbox reports metadata and asset timing, failures, warnings, stalls and resumptions; Playtrace adds seeks,
/// rate changes, variant switches, item transitions and the time to the first frame.
public struct MetricEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Metadata retrieval: `service` is the loader's own time, `experience` what the user waited.
        case metadata(experience: Duration, service: Duration)
        /// From the item becoming current to its asset being ready to load.
        case asset(experience: Duration)
        /// The playhead moved for the first time, after this long.
        case firstFrame(startup: Duration)
        /// Playback stalled for lack of data.
        case stall
        /// Playback resumed after a stall of this length.
        case resumeAfterStall(stallDuration: Duration)
        /// A seek began.
        case seekBegan(target: MediaTime)
        /// A seek ended (`completed` is false when another seek replaced it).
        case seekEnded(position: MediaTime, completed: Bool)
        /// The playback rate changed.
        case rateChanged(Double)
        /// The variant under the playhead changed.
        case variantSwitched(from: VariantInfo, to: VariantInfo, reason: VariantSwitchReason)
        /// The player moved to another item.
        case itemTransition
        /// The first fatal error.
        case failure(EngineError)
        /// An interstitial began (the primary waits), or ended.
        case interstitialBegan(InterstitialEvent)
        case interstitialEnded(InterstitialEvent, outcome: InterstitialOutcome)
        /// One asset of an interstitial could not be played (it was skipped): its place in the interstitial and why.
        case interstitialAssetFailed(InterstitialEvent, index: Int, reason: String)
        /// A non-fatal error.
        case warning(EngineError)
    }

    public var kind: Kind
    /// When it happened: time since the item's session started, on the injected clock.
    public var time: Duration
    /// Where the playhead was.
    public var playhead: MediaTime

    public init(kind: Kind, time: Duration, playhead: MediaTime) {
        self.kind = kind
        self.time = time
        self.playhead = playhead
    }
}
