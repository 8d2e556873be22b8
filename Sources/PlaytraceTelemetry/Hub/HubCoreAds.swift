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
///
/// An instrument serves one player by default: every content tracker is the ads tracker's content. With
/// `separatesSessions`, one instrument serves many players (a probe's thousands of viewers): the rules hold per
/// viewing session, trackers whose events carry one `sessionId` (a player's content tracker and its ads tracker)
/// being one session, so that one viewer's ad break does not stop another's content time.
public final class HubCoreAds: HubCore {
    /// What an ad event's snapshot carries: the ad counter and the ad flags (and the time-since values).
    private static let adCarried = PlaybackSnapshot.mask(of: [.countAds, .inAdBreakBlock, .inAdBlock])

    /// One viewing session's ad state and trackers.
    private struct Session {
        var isBreakOpen = false
        var isAdOpen = false
        /// Its content trackers, in the order they were first seen.
        var content: [TrackerID] = []
        var hasAdsTracker = false
    }

    private var sessions: [String: Session] = [:]
    /// Each tracker's session, from its first event.
    private var sessionOf: [TrackerID: String] = [:]
    private let separatesSessions: Bool

    /// - Parameters:
    ///   - pingInterval: how often a playing content tracker's Ping is emitted.
    ///   - separatesSessions: whether the instrument serves many players, told apart by their events' `sessionId`.
    public init(pingInterval: Duration = .seconds(30), separatesSessions: Bool = false) {
        self.separatesSessions = separatesSessions
        super.init(pingInterval: pingInterval)
    }

    public override func processEvent(_ event: inout Event, state: inout TrackerState, tracker: TrackerID,
                                      instrument: Instrument) -> Bool {
        let isAds = instrument.isAdsTracker(tracker)
        let session = session(of: tracker, event: event, isAds: isAds, instrument: instrument)
        guard isAds else {
            let action = event.action.standardAction
            let isBreakOpen = sessions[session]?.isBreakOpen ?? false
            if action == .end, isBreakOpen { return false }
            state.inAdBreak = isBreakOpen
            guard action == .adBreakBegin || action == .adBreakFinish, hasAdsTracker(session, instrument) else {
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
        guard acceptAdEvent(&event, state: &state, session: session, instrument: instrument, now: now) else { return false }
        if let content = contentTracker(of: session, instrument) { instrument.useGetter(.position, on: &event, tracker: content) }
        event.playback.carried = Self.adCarried
        event.playback.countAds = state.countAds
        event.playback.inAdBreakBlock = state.inAdBreak
        event.playback.inAdBlock = state.inAd
        HubCore.recordTime(of: event.action, in: &event.playback, state: &state, now: now)
        return true
    }

    private func acceptAdEvent(_ event: inout Event, state: inout TrackerState, session: String, instrument: Instrument,
                               now: Int64) -> Bool {
        var ads = sessions[session] ?? Session()
        defer { sessions[session] = ads }
        switch event.action.standardAction {
        case .adBreakBegin:
            guard !ads.isBreakOpen else { return false }
            ads.isBreakOpen = true
            state.inAdBreak = true
            updateContent(of: session, instrument) { $0.inAdBreak = true }
        case .adBreakFinish:
            guard ads.isBreakOpen else { return false }
            if ads.isAdOpen { closeAd(&state, ads: &ads, session: session, instrument: instrument, now: now) }
            ads.isBreakOpen = false
            state.inAdBreak = false
            updateContent(of: session, instrument) { $0.inAdBreak = false }
        case .adBegin:
            guard ads.isBreakOpen, !ads.isAdOpen else { return false }
            ads.isAdOpen = true
            state.inAd = true
            state.countAds += 1
            state.adStart = now
            updateContent(of: session, instrument) { content in
                HubCore.accountPlayTime(&content, until: now)
                content.inAd = true
                content.countAds += 1
            }
        case .adFinish, .adSkip:
            guard ads.isAdOpen else { return false }
            closeAd(&state, ads: &ads, session: session, instrument: instrument, now: now)
        case .adError:
            state.countErrors += 1
            if ads.isAdOpen { closeAd(&state, ads: &ads, session: session, instrument: instrument, now: now) }
        case .adPauseBegin:
            guard ads.isAdOpen, !state.isPaused else { return false }
            state.isPaused = true
        case .adPauseFinish:
            guard state.isPaused else { return false }
            state.isPaused = false
        case .adBufferBegin:
            guard ads.isAdOpen, !state.isBuffering else { return false }
            state.isBuffering = true
        case .adBufferFinish:
            guard state.isBuffering else { return false }
            state.isBuffering = false
        case .adFirstQuartile, .adSecondQuartile, .adThirdQuartile, .adClick:
            guard ads.isAdOpen else { return false }
        default:
            break
        }
        return true
    }

    private func closeAd(_ state: inout TrackerState, ads: inout Session, session: String, instrument: Instrument, now: Int64) {
        ads.isAdOpen = false
        state.inAd = false
        state.isPaused = false
        state.isBuffering = false
        if let began = state.adStart { state.adTotal += now - began }
        state.adStart = nil
        updateContent(of: session, instrument) { content in
            content.inAd = false
            content.playAccounted = now
        }
    }

    /// A tracker's session: learnt from its first event's `sessionId` (none: the shared one, ""), the tracker noted
    /// among the session's. Trackers the instrument no longer has are forgotten as new ones arrive.
    private func session(of tracker: TrackerID, event: Event, isAds: Bool, instrument: Instrument) -> String {
        if let known = sessionOf[tracker] { return known }
        let session: String = if separatesSessions, case .string(let id) = event[.sessionId] { id } else { "" }
        if sessionOf.count >= 64, sessionOf.count >= 2 * instrument.trackerCount { forgetRemoved(instrument) }
        sessionOf[tracker] = session
        if isAds {
            sessions[session, default: Session()].hasAdsTracker = true
        } else {
            sessions[session, default: Session()].content.append(tracker)
        }
        return session
    }

    /// Whether the session has an ads tracker: one registered (a player's instrument), or one that spoke with the
    /// session's `sessionId` (many viewers on one instrument, whose ads trackers are known by their events).
    private func hasAdsTracker(_ session: String, _ instrument: Instrument) -> Bool {
        separatesSessions ? sessions[session]?.hasAdsTracker == true
            : instrument.trackerIDs.contains { instrument.isAdsTracker($0) }
    }

    private func forgetRemoved(_ instrument: Instrument) {
        let live = Set(instrument.trackerIDs)
        sessionOf = sessionOf.filter { live.contains($0.key) }
        for (name, session) in sessions {
            let content = session.content.filter(live.contains)
            if content.isEmpty, !sessionOf.values.contains(name) {
                sessions[name] = nil
            } else {
                sessions[name]?.content = content
            }
        }
    }

    private func contentTracker(of session: String, _ instrument: Instrument) -> TrackerID? {
        sessions[session]?.content.first { instrument.withState(of: $0) { _ in true } == true }
    }

    private func updateContent(of session: String, _ instrument: Instrument, _ body: (inout TrackerState) -> Void) {
        for tracker in sessions[session]?.content ?? [] {
            _ = instrument.withState(of: tracker, body)
        }
    }
}
