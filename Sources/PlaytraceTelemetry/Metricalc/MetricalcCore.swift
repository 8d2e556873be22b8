import PlaytraceCore

/// Computes OpenAVT's metrics and CTA-2066's per-session metrics from the events ``HubCore`` lets through.
///
/// Every metric carries the dimensions found on its event (``Attribute/dimensions``: session, playback, stream,
/// content, variant, engine, platform), so that a time-series database can group by them.
///
/// As events happen (OpenAVT):
/// - `NumRequests`, `NumLoads`, `NumPlays`, `NumEnds` (counters): a MediaRequest, a StreamLoad, a Start, an End;
/// - `StartTime` (gauge, ms): from the playback's first MediaRequest or StreamLoad to Start;
/// - `NumRebuffers` (counter) and `RebufferTime` (gauge, ms): a buffering after Start, outside pauses and seeks;
/// - `PlayTime` (counter, ms): content play time since the previous event (`deltaPlayTime`), to be summed.
///
/// When a playback closes (End, Stop or Next), per session (CTA-2066):
/// - `StallCount` (gauge) and `StallDuration` (gauge, ms): rebufferings only — not startup, seeks or pauses;
/// - `WatchedTime` (gauge, ms): from the request to the close, less user pauses (startup, stalls and seeks count);
///   0 when the playback never started;
/// - `RebufferingRatio` (gauge): stall duration / watched time;
/// - `ContentPlaybackTime` (gauge, ms): content actually played (playhead progress; ads, interstitials and the
///   stream's signalled breaks excluded);
/// - `AverageBitrate` (gauge, bit/s): the bit rate weighted by the content time played at it;
/// - `BitrateSwitchesUp`, `BitrateSwitchesDown` (gauges): QualityChangeUp and QualityChangeDown events;
/// - `ExitBeforeVideoStart` (counter): closed before Start without a fatal error;
/// - `PlaybackFailure` (counter, with `failureStage` `start` or `playback`): a fatal Error (`isFatal`) happened.
public final class MetricalcCore: Metricalc {
    fileprivate struct Session {
        var playbackIdentifier: PlaybackIdentifier?
        var stallCount = 0
        var stallDuration = 0
        var switchesUp = 0
        var switchesDown = 0
        var bitrate: Double?
        var weightedBits = 0.0
        var weightedTime = 0.0
        var fatalError = false
        var fatalBeforeStart = false
        /// The dimensions of the last metric, and the context they came from: the metrics of a playback share
        /// them (one list, which backends recognise) while the tracker's context stays the same.
        var dimensions: AttributeList?
        var dimensionsContext = AttributeList()
        /// The bit rate of the last context looked at (the same list, event after event, until it changes).
        var bitrateContext = AttributeList()
        var contextBitrate: Double?
    }

    /// The dimension attributes as standard slots.
    private static let dimensionSlots = PlaybackSnapshot.mask(of: Attribute.dimensions)

    /// Each tracker's session, in a short list (an instrument has a handful of trackers).
    private var sessions: ContiguousArray<(tracker: TrackerID, session: Session)> = []

    public init() {}

    public func endOfService() { sessions.removeAll() }

    public func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument) -> [Metric] {
        var metrics: [Metric] = []
        processMetric(event, state: state, tracker: tracker, instrument: instrument, into: &metrics)
        return metrics
    }

    public func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument,
                              into metrics: inout [Metric]) {
        let index = sessions.firstIndex { $0.tracker == tracker } ?? {
            sessions.append((tracker, Session()))
            return sessions.count - 1
        }()
        var collected = Metrics(date: event.date)
        swap(&collected.list, &metrics)
        process(event, state: state, session: &sessions[index].session, metrics: &collected)
        swap(&collected.list, &metrics)
        let action = event.action.standardAction
        if state.didFinish, action == .end || action == .stop || action == .next {
            // The playback is closed: its session goes (a tracker that is removed leaves nothing behind).
            sessions.remove(at: index)
        }
    }

    /// Collects an event's metrics, with the dimensions they share.
    private struct Metrics {
        let date: StreamDate
        var dimensions: AttributeList?   // found with the first metric: most events make one at most
        var list: [Metric] = []

        mutating func add(_ name: String, _ kind: Metric.Kind, _ value: Double, event: Event, session: inout Session,
                          extra: AttributeList? = nil) {
            var metricDimensions = dimensions ?? MetricalcCore.dimensions(of: event, session: &session)
            dimensions = metricDimensions
            if let extra { for entry in extra { metricDimensions[entry.attribute] = entry.value } }
            list.append(Metric(name: name, kind: kind, value: value, date: date, dimensions: metricDimensions))
        }
    }

    private func process(_ event: Event, state: TrackerState, session: inout Session, metrics: inout Metrics) {
        // The playback id and the play time, straight from the hub's snapshot unless the event replaces them.
        if event.readsFromSnapshot(Attribute.ID.playbackId) {
            if session.playbackIdentifier != event.playback.playbackIdentifier {
                session = Session()
                session.playbackIdentifier = event.playback.playbackIdentifier
            }
        } else {
            let playbackIdentifier = event[.playbackId].map { PlaybackIdentifier.text($0.description) }
            if session.playbackIdentifier != playbackIdentifier {
                session = Session()
                session.playbackIdentifier = playbackIdentifier
            }
        }

        let delta = Double(event.readsFromSnapshot(Attribute.ID.deltaPlayTime)
            ? event.playback.deltaPlayTime : event[.deltaPlayTime]?.int ?? 0)
        if delta > 0 {
            metrics.add("PlayTime", .counter, delta, event: event, session: &session)
            if let bitrate = session.bitrate {
                session.weightedBits += bitrate * delta
                session.weightedTime += delta
            }
        }
        // (The bit rate is no snapshot attribute: the event's own, else its context's, looked up once per context.)
        let bitrate: Double?
        if event.attributes.contains(.bitrate) {
            bitrate = event.attributes[.bitrate]?.number
        } else {
            if !session.bitrateContext.isIdentical(to: event.context) {
                session.bitrateContext = event.context
                session.contextBitrate = event.context[.bitrate]?.number
            }
            bitrate = session.contextBitrate
        }
        if let bitrate, bitrate > 0 { session.bitrate = bitrate }

        let action = event.action.standardAction
        switch action {
        case .mediaRequest:
            metrics.add("NumRequests", .counter, 1, event: event, session: &session)
        case .streamLoad:
            metrics.add("NumLoads", .counter, 1, event: event, session: &session)
        case .start:
            metrics.add("NumPlays", .counter, 1, event: event, session: &session)
            if let requested = state.requested {
                let startup = HubCore.milliseconds(event.timeNanoseconds - requested)
                metrics.add("StartTime", .gauge, Double(startup), event: event, session: &session)
            }
        case .bufferFinish where event[.bufferType] == .string(TrackerState.BufferKind.rebuffer.rawValue):
            let duration = event[Action.bufferBegin.timeAttribute]?.int ?? 0
            session.stallCount += 1
            session.stallDuration += duration
            metrics.add("NumRebuffers", .counter, 1, event: event, session: &session)
            metrics.add("RebufferTime", .gauge, Double(duration), event: event, session: &session)
        case .qualityChangeUp:
            session.switchesUp += 1
        case .qualityChangeDown:
            session.switchesDown += 1
        case .error where event[.isFatal] == .bool(true):
            if !session.fatalError {
                session.fatalError = true
                session.fatalBeforeStart = !state.didStart
            }
        case .end, .stop, .next:
            if action == .end { metrics.add("NumEnds", .counter, 1, event: event, session: &session) }
            if state.didFinish { addClosingMetrics(to: &metrics, session: &session, state: state, event: event) }
        default:
            break
        }
    }

    /// An event's dimensions: those of the session's previous metric when they come from the same context and
    /// nothing else on the event could change them.
    fileprivate static func dimensions(of event: Event, session: inout Session) -> AttributeList {
        let cacheable = !event.attributes.mayContain(slots: dimensionSlots)
        if cacheable, let cached = session.dimensions, session.dimensionsContext.isIdentical(to: event.context) {
            return cached
        }
        let dimensions = dimensions(of: event)
        if cacheable {
            session.dimensions = dimensions
            session.dimensionsContext = event.context
        }
        return dimensions
    }

    private static func dimensions(of event: Event) -> AttributeList {
        var dimensions = AttributeList(capacity: Attribute.dimensions.count + 1)
        for attribute in Attribute.dimensions {
            if let value = event[attribute] { dimensions[attribute] = value }
        }
        return dimensions
    }

    private func addClosingMetrics(to metrics: inout Metrics, session: inout Session, state: TrackerState,
                                   event: Event) {
        let now = event.timeNanoseconds
        // A playback that never showed a frame watched nothing, whatever it waited.
        let watched = state.didStart
            ? max(0, HubCore.milliseconds(now - (state.requested ?? now)) - HubCore.milliseconds(state.pauseTotal)) : 0
        func gauge(_ name: String, _ value: Double) { metrics.add(name, .gauge, value, event: event, session: &session) }
        gauge("StallCount", Double(session.stallCount))
        gauge("StallDuration", Double(session.stallDuration))
        gauge("WatchedTime", Double(watched))
        gauge("RebufferingRatio", watched > 0 ? Double(session.stallDuration) / Double(watched) : 0)
        gauge("ContentPlaybackTime", Double(HubCore.milliseconds(state.playTotal)))
        if session.weightedTime > 0 { gauge("AverageBitrate", session.weightedBits / session.weightedTime) }
        gauge("BitrateSwitchesUp", Double(session.switchesUp))
        gauge("BitrateSwitchesDown", Double(session.switchesDown))
        if session.fatalError {
            var stage = AttributeList()
            stage[.failureStage] = .string(session.fatalBeforeStart ? "start" : "playback")
            metrics.add("PlaybackFailure", .counter, 1, event: event, session: &session, extra: stage)
        } else if !state.didStart {
            metrics.add("ExitBeforeVideoStart", .counter, 1, event: event, session: &session)
        }
    }
}
