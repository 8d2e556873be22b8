import PlaytraceCore
import PlaytraceAds
import PlaytraceTelemetry

/// Hands an ad session's playback events to the instrument's ads tracker: breaks, ads, quartiles, pauses, buffering,
/// skips and errors become OpenAVT's ad actions, and the hub stops counting content time while an ad plays.
@MainActor
final class AdTelemetryBridge {
    private let tracker: AdTelemetryTracker

    init(instrument: Instrument, sessionID: String) {
        tracker = AdTelemetryTracker(instrument: instrument, sessionID: sessionID)
    }

    func handle(_ event: AdPlaybackEvent) {
        switch event {
        case .breakBegan(_, let position):
            let roll: AdRoll = switch position {
            case .preRoll: .pre
            case .midRoll: .mid
            case .postRoll: .post
            }
            tracker.breakBegan(roll: roll)
        case .adBegan(let ad, _, _):
            tracker.adBegan(TelemetryAd(id: ad.id, duration: .saturating(milliseconds: ad.duration.milliseconds)))
        case .adProgressed(_, let position): tracker.adProgressed(to: .saturating(milliseconds: position.milliseconds))
        case .adEnded: tracker.adEnded()
        case .adSkipped: tracker.adSkipped()
        case .breakEnded: tracker.breakEnded()
        case .adPaused: tracker.adPaused()
        case .adResumed: tracker.adResumed()
        case .adBufferBegan: tracker.adBufferBegan()
        case .adBufferEnded: tracker.adBufferEnded()
        case .adFailed(_, let description): tracker.adFailed(description)
        }
    }
}
