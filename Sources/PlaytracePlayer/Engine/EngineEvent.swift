public import PlaytraceCore

/// What an engine reports as it plays, in order.
public enum EngineEvent: Sendable, Hashable {
    /// The status changed.
    case statusChanged(EngineStatus)
    /// The source is loaded: its type, duration and variants are known.
    case loaded(streamType: StreamType, duration: MediaTime?, variants: [VariantInfo])
    /// The playhead started moving for the first time (the headless engine's "first frame").
    case firstFrame(startupTime: Duration)
    /// A rebuffering began at this position.
    case stallBegan(at: MediaTime)
    /// A rebuffering ended after this long.
    case stallEnded(after: Duration)
    /// A seek began towards this target.
    case seekBegan(target: MediaTime)
    /// A seek ended at this position (`completed` is false when another seek replaced it).
    case seekEnded(at: MediaTime, completed: Bool)
    /// The playback rate changed.
    case rateChanged(Double)
    /// The variant under the playhead changed.
    case variantSwitched(from: VariantInfo?, to: VariantInfo, reason: VariantSwitchReason)
    /// The playhead reached a skipped range and continued from its end (see
    /// ``PlaybackEngine/setSkippedRanges(_:)``).
    case rangeSkipped(MediaTimeRange)
    /// The rendition of a kind of media changed (`nil`: none, for subtitles).
    case mediaOptionSelected(MediaOption?, kind: MediaOption.Kind)
    /// A live playlist was refreshed: its window now spans this range.
    case playlistRefreshed(window: MediaTimeRange, mediaSequence: Int)
    /// The ad breaks the stream signals changed (a playlist brought a new one, or the end of one): all of them,
    /// in order of their start.
    case adBreaksChanged([SignalledAdBreak])
    /// An interstitial began: the primary waits at its start.
    case interstitialBegan(InterstitialEvent)
    /// One of its assets began to play (its place in the list).
    case interstitialAssetBegan(InterstitialEvent, index: Int, asset: InterstitialAsset)
    /// That asset ended.
    case interstitialAssetEnded(InterstitialEvent, index: Int, outcome: InterstitialOutcome)
    /// The interstitial ended; the primary resumes.
    case interstitialEnded(InterstitialEvent, outcome: InterstitialOutcome)
    /// A request finished (successfully or not).
    case request(RequestRecord)
    /// The playhead moved continuously (reported only while progress reports are on: see
    /// ``PlaybackEngine/setReportsProgress(_:)``).
    case progressed(PlaybackProgress)
    /// An error; fatal ones stop playback.
    case error(EngineError)
    /// The end of an on-demand item was reached.
    case ended
}
