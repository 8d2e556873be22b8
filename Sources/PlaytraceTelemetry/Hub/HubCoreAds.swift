/// ``HubCore``'s rules for content trackers, plus OpenAVT's ad rules for ads trackers
/// (``TelemetryTracker/isAdsTracker``), with its flaws fixed:
/// - AdBreakBegin/AdBreakFinish pair up; AdBegin needs an open break and no open ad; quartiles, clicks, ad pauses
///   and ad buffers need an open ad;
/// - **AdFinish, AdSkip and AdError close the ad** (OpenAVT left a skipped ad open), and AdBreakFinish closes an ad
///   still open;
/// - **ad time is not content play time**: while an ad plays, the content trackers' play time stops (their
///   `inAdBlock` is set), and it resumes when the ad closes;
/// - a content End inside an ad break is dropped (a mid-roll is not the end of the content);
/// - a content tracker's own AdBreakBegin/AdBreakFinish (its stream's breaks) stop its content time as in
///   ``HubCore``, but reach the backends only while no ads tracker is registered: an ads tracker reports the
///   breaks it knows, and a break is not reported twice;
/// - ad events carry the content's playhead (`position`, from the content tracker's getter) and the ad counters.
public final class HubCoreAds: HubCore {
    /// What an ad event's snapshot carries: the ad counter and the ad flags (and the time-since values).
    private static let adCarried = PlaybackSnapshot.mask(of: [.countAds, .inAdBreakBlock, .inAdBlock])
    private var isBreakOpen = false
    private var isAdOpen = false

    public override init(pingInterval: Duration = .seconds(30)) {
        super.init(pingInterval: pingInterval)
    }

    public override func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID,
                                      instrument: Instrument) -> Bool {
        guard instrument.isAdsTracker(tracker) else {
            let action = event.action.standardAction
            if action == .end, isBreakOpen { return false }
            state.inAdBreak = isBreakOpen
            guard action == .adBreakBegin || action == .adBreakFinish,
                  instrument.trackerIDs.contains(where: { instrument.isAdsTracker($0) }) else {
                return super.processEvent(&event, state: &state, tracker: tracker, instrument: instrument)
            }
            // The stream's own break: content time stops or resumes, but the ads tracker reports the break, and the
            // play time accounted here is reported by the content's next event.
            let now = event.timeNanoseconds
            HubCore.accountPlayTime(&state, until: now)
            _ = accept(&event, state: &state, tracker: tracker, instrument: instrument, now: now)
            return false
        }
        let now = event.timeNanoseconds
        guard acceptAdEvent(&event, state: &state, instrument: instrument, now: now) else { return false }
        if let content = contentTracker(instrument) { instrument.useGetter(.position, on: &event, tracker: content) }
        event.playback.carried = Self.adCarried
        event.playback.countAds = state.countAds
        event.playback.inAdBreakBlock = state.inAdBreak
        event.playback.inAdBlock = state.inAd
        HubCore.recordTime(of: event.action, in: &event.playback, state: &state, now: now)
        return true
    }

    private func acceptAdEvent(_ event: inout Event, state: inout TrackerState, instrument: Instrument,
                               now: Int64) -> Bool {
        switch event.action.standardAction {
        case .adBreakBegin:
            guard !isBreakOpen else { return false }
            isBreakOpen = true
            state.inAdBreak = true
            updateContent(instrument) { $0.inAdBreak = true }
        case .adBreakFinish:
            guard isBreakOpen else { return false }
            if isAdOpen { closeAd(&state, instrument: instrument, now: now) }
            isBreakOpen = false
            state.inAdBreak = false
            updateContent(instrument) { $0.inAdBreak = false }
        case .adBegin:
            guard isBreakOpen, !isAdOpen else { return false }
            isAdOpen = true
            state.inAd = true
            state.countAds += 1
            state.adStart = now
            updateContent(instrument) { content in
                HubCore.accountPlayTime(&content, until: now)
                content.inAd = true
                content.countAds += 1
            }
        case .adFinish, .adSkip:
            guard isAdOpen else { return false }
            closeAd(&state, instrument: instrument, now: now)
        case .adError:
            state.countErrors += 1
            if isAdOpen { closeAd(&state, instrument: instrument, now: now) }
        case .adPauseBegin:
            guard isAdOpen, !state.isPaused else { return false }
            state.isPaused = true
        case .adPauseFinish:
            guard state.isPaused else { return false }
            state.isPaused = false
        case .adBufferBegin:
            guard isAdOpen, !state.isBuffering else { return false }
            state.isBuffering = true
        case .adBufferFinish:
            guard state.isBuffering else { return false }
            state.isBuffering = false
        case .adFirstQuartile, .adSecondQuartile, .adThirdQuartile, .adClick:
            guard isAdOpen else { return false }
        default:
            break
        }
        return true
    }

    private func closeAd(_ state: inout TrackerState, instrument: Instrument, now: Int64) {
        isAdOpen = false
        state.inAd = false
        state.isPaused = false
        state.isBuffering = false
        if let began = state.adStart { state.adTotal += now - began }
        state.adStart = nil
        updateContent(instrument) { content in
            content.inAd = false
            content.playAccounted = now
        }
    }

    private func contentTracker(_ instrument: Instrument) -> TrackerID? {
        instrument.trackerIDs.first { !instrument.isAdsTracker($0) }
    }

    private func updateContent(_ instrument: Instrument, _ body: (inout TrackerState) -> Void) {
        for tracker in instrument.trackerIDs where !instrument.isAdsTracker(tracker) {
            _ = instrument.withState(of: tracker, body)
        }
    }
}
