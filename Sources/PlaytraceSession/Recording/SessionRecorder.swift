import PlaytraceCore
import PlaytracePlayer

/// Keeps the session's timeline for the summary (``SessionSummary/Timeline``): the player sampled at the session's
/// tick, the tracker's metric events, pauses and plays, and the breaks the stream signalled — within the timeline's
/// bounds whatever the session's length.
@MainActor
final class SessionRecorder {
    private let stopwatch: Stopwatch
    private(set) var timeline = SessionSummary.Timeline()
    private var lastSampleAt: Double?
    private var lastState: (item: Int, state: PlaybackState)?
    private var breakIndex: [String: Int] = [:]
    private let limits: SessionRecordLimits

    init(stopwatch: Stopwatch, limits: SessionRecordLimits = .session) {
        self.stopwatch = stopwatch
        self.limits = limits
        // A small limit (a probe viewer's) is reserved whole, so that the samples never take more than it.
        timeline.samples.reserveCapacity(min(limits.samples, 128))
    }

    private var now: Double { stopwatch.elapsed.seconds }

    /// Samples the player (at most once per ``SessionSummary/Timeline/sampleIntervalSeconds``), and notes a pause or
    /// a play since the last sample.
    func sample(_ player: Player, item: Int) {
        let at = now
        let state = player.playbackState
        if let last = lastState, last.item == item, last.state != state, state == .paused || state == .playing {
            note(SessionSummary.PlaybackEvent(atSeconds: at, item: item, kind: state == .paused ? "pause" : "play",
                                              playheadSeconds: player.time.seconds,
                                              text: state == .paused ? "paused" : "playing"))
        }
        lastState = (item, state)
        if let lastSampleAt, at - lastSampleAt < timeline.sampleIntervalSeconds * 0.999 { return }
        lastSampleAt = at
        let snapshot = player.engineSnapshot
        let live = snapshot.streamType != .onDemand
        timeline.samples.append(SessionSummary.Sample(
            atSeconds: at, item: item, state: state.rawValue, buffering: player.isBuffering, rate: snapshot.rate,
            playheadSeconds: player.time.seconds, bufferAheadSeconds: snapshot.bufferedAhead.seconds,
            durationSeconds: snapshot.duration?.seconds,
            seekableEndSeconds: live ? snapshot.seekableRange.end.seconds : nil,
            variant: snapshot.currentVariant?.index, bitrateBitsPerSecond: snapshot.currentVariant?.bandwidth,
            interstitial: player.currentInterstitial?.event.id))
        if timeline.samples.count >= limits.samples {
            // Halved in place: the array keeps the capacity reserved for the limit, and never grows past it.
            var kept = 0
            for index in stride(from: 0, to: timeline.samples.count, by: 2) {
                timeline.samples[kept] = timeline.samples[index]
                kept += 1
            }
            timeline.samples.removeLast(timeline.samples.count - kept)
            timeline.sampleIntervalSeconds *= 2
        }
    }

    /// Notes a metric event of the item's tracker, in the console's words.
    func note(_ event: MetricEvent, item: Int, text: String) {
        var entry = SessionSummary.PlaybackEvent(atSeconds: now, item: item, kind: "", playheadSeconds: event.playhead.seconds,
                                                 text: text)
        switch event.kind {
        case .metadata, .asset, .itemTransition: return
        case .firstFrame(let startup):
            entry.kind = "firstFrame"
            entry.durationSeconds = startup.seconds
        case .stall: entry.kind = "stall"
        case .resumeAfterStall(let duration):
            entry.kind = "stallEnded"
            entry.durationSeconds = duration.seconds
        case .seekBegan(let target):
            entry.kind = "seek"
            entry.targetSeconds = target.seconds
        case .seekEnded(let position, _):
            entry.kind = "seekEnded"
            entry.targetSeconds = position.seconds
        case .rateChanged(let rate):
            entry.kind = "rate"
            entry.rate = rate
        case .variantSwitched(_, let to, _):
            entry.kind = "variantSwitch"
            entry.bitrateBitsPerSecond = to.bandwidth
        case .failure: entry.kind = "failure"
        case .warning: entry.kind = "warning"
        case .interstitialBegan: entry.kind = "interstitialBegan"
        case .interstitialEnded: entry.kind = "interstitialEnded"
        case .interstitialAssetFailed: entry.kind = "interstitialAssetFailed"
        }
        note(entry)
    }

    /// Notes that an item became current.
    func itemStarted(_ item: Int, title: String) {
        note(SessionSummary.PlaybackEvent(atSeconds: now, item: item, kind: "itemStarted", playheadSeconds: 0, text: title))
    }

    /// Keeps the item's breaks as last signalled.
    func noteBreaks(_ breaks: [BreakAnnouncer.Break], item: Int) {
        for signalled in breaks {
            let entry = SessionSummary.Break(item: item, id: signalled.ids[0], sources: signalled.sources,
                                             startSeconds: signalled.start?.seconds, durationSeconds: signalled.duration?.seconds,
                                             interstitial: signalled.sources == ["interstitial"])
            let key = "\(item)\u{1F}" + signalled.ids[0]
            if let index = breakIndex[key] {
                timeline.breaks[index] = entry
            } else if timeline.breaks.count < SessionSummary.Timeline.breakLimit {
                breakIndex[key] = timeline.breaks.count
                timeline.breaks.append(entry)
            }
        }
    }

    private func note(_ event: SessionSummary.PlaybackEvent) {
        let limit = limits.events
        let important = event.kind == "failure" || event.kind == "warning" || event.kind == "itemStarted"
        if timeline.events.count < limit || (important && timeline.events.count < 2 * limit) {
            timeline.events.append(event)
        } else {
            timeline.eventsOmitted += 1
        }
    }
}
