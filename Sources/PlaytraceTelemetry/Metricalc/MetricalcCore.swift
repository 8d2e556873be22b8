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
/// - `RebufferingRatio` (gauge): stall duration / watched time;
/// - `ContentPlaybackTime` (gauge, ms): content actually played (playhead progress, ads excluded);
/// - `AverageBitrate` (gauge, bit/s): the bit rate weighted by the content time played at it;
/// - `BitrateSwitchesUp`, `BitrateSwitchesDown` (gauges): QualityChangeUp and QualityChangeDown events;
/// - `ExitBeforeVideoStart` (counter): closed before Start without a fatal error;
/// - `PlaybackFailure` (counter, with `failureStage` `start` or `playback`): a fatal Error (`isFatal`) happened.
public final class MetricalcCore: Metricalc {
    private struct Session {
        var playbackID: AttributeValue?
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
    }

    /// The dimension attributes as standard slots.
    private static let dimensionSlots = PlaybackSnapshot.mask(of: Attribute.dimensions)

    /// Each tracker's session, in a short list (an instrument has a handful of trackers). Only the instrument
    /// calls a metricalc, one event at a time, so accesses never overlap: the run-time exclusivity check is left out.
    @exclusivity(unchecked) private var sessions: ContiguousArray<(tracker: TrackerID, session: Session)> = []

    public init() {}

    public func endOfService() { sessions.removeAll() }

    public func processMetric(_ event: Event, state: TrackerState, tracker: TrackerID, instrument: Instrument) -> [Metric] {
        let index = sessions.firstIndex { $0.tracker == tracker } ?? {
            sessions.append((tracker, Session()))
            return sessions.count - 1
        }()
        let metrics = process(event, state: state, session: &sessions[index].session)
        if state.didFinish, [.end, .stop, .next].contains(event.action.standardAction) {
            // The playback is closed: its session goes (a tracker that is removed leaves nothing behind).
            sessions.remove(at: index)
        }
        return metrics
    }

    private func process(_ event: Event, state: TrackerState, session: inout Session) -> [Metric] {
        if session.playbackID != event[.playbackId] {
            session = Session()
            session.playbackID = event[.playbackId]
        }
        var dimensions: AttributeList?   // built with the first metric: most events make one at most
        var metrics: [Metric] = []
        func add(_ name: String, _ kind: Metric.Kind, _ value: Double, extra: AttributeList? = nil) {
            var metricDimensions = dimensions ?? Self.dimensions(of: event, session: &session)
            dimensions = metricDimensions
            if let extra { for entry in extra { metricDimensions[entry.attribute] = entry.value } }
            metrics.append(Metric(name: name, kind: kind, value: value, date: event.date, dimensions: metricDimensions))
        }

        let delta = Double(event[.deltaPlayTime]?.int ?? 0)
        if delta > 0 {
            add("PlayTime", .counter, delta)
            if let bitrate = session.bitrate {
                session.weightedBits += bitrate * delta
                session.weightedTime += delta
            }
        }
        if let bitrate = event[.bitrate]?.number, bitrate > 0 { session.bitrate = bitrate }

        let action = event.action.standardAction
        switch action {
        case .mediaRequest:
            add("NumRequests", .counter, 1)
        case .streamLoad:
            add("NumLoads", .counter, 1)
        case .start:
            add("NumPlays", .counter, 1)
            if let requested = state.requested {
                add("StartTime", .gauge, Double(HubCore.milliseconds(ActionTimes.nanoseconds(event.time) - requested)))
            }
        case .bufferFinish where event[.bufferType] == .string(TrackerState.BufferKind.rebuffer.rawValue):
            let duration = event[Action.bufferBegin.timeAttribute]?.int ?? 0
            session.stallCount += 1
            session.stallDuration += duration
            add("NumRebuffers", .counter, 1)
            add("RebufferTime", .gauge, Double(duration))
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
            if action == .end { add("NumEnds", .counter, 1) }
            if state.didFinish { addClosingMetrics(session, state: state, event: event, add: add) }
        default:
            break
        }
        return metrics
    }

    /// An event's dimensions: those of the session's previous metric when they come from the same context and
    /// nothing else on the event could change them.
    private static func dimensions(of event: Event, session: inout Session) -> AttributeList {
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

    private func addClosingMetrics(_ session: Session, state: TrackerState, event: Event,
                                   add: (String, Metric.Kind, Double, AttributeList?) -> Void) {
        let now = ActionTimes.nanoseconds(event.time)
        let watched = max(0, HubCore.milliseconds(now - (state.requested ?? now)) - HubCore.milliseconds(state.pauseTotal))
        add("StallCount", .gauge, Double(session.stallCount), nil)
        add("StallDuration", .gauge, Double(session.stallDuration), nil)
        add("WatchedTime", .gauge, Double(watched), nil)
        add("RebufferingRatio", .gauge, watched > 0 ? Double(session.stallDuration) / Double(watched) : 0, nil)
        add("ContentPlaybackTime", .gauge, Double(HubCore.milliseconds(state.playTotal)), nil)
        if session.weightedTime > 0 { add("AverageBitrate", .gauge, session.weightedBits / session.weightedTime, nil) }
        add("BitrateSwitchesUp", .gauge, Double(session.switchesUp), nil)
        add("BitrateSwitchesDown", .gauge, Double(session.switchesDown), nil)
        if session.fatalError {
            var stage = AttributeList()
            stage[.failureStage] = .string(session.fatalBeforeStart ? "start" : "playback")
            add("PlaybackFailure", .counter, 1, stage)
        } else if !state.didStart {
            add("ExitBeforeVideoStart", .counter, 1, nil)
        }
    }
}
