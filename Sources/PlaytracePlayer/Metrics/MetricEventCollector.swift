public import PlaytraceCore

/// Turns an engine's events into an item's metric events, in order.
///
/// Only the first fatal error is a failure (later ones are consequences); the initial variant choice is not a
/// switch. Events that measure nothing (status changes, requests, refreshes) are not metric events.
///
/// ```swift
/// var collector = MetricEventCollector()
/// collector.record(event, at: stopwatch.elapsed, playhead: snapshot.playhead)
/// collector.events   // what trackers receive through updateMetricEvents(to:)
/// ```
public struct MetricEventCollector: Sendable {
    /// The metric events so far, oldest first.
    public private(set) var events: [MetricEvent] = []
    private var hasFailed = false

    public init() {}

    /// Records an engine event that happened at `time` with the playhead at `playhead`; returns the metric event
    /// it produced, if any.
    @discardableResult
    public mutating func record(_ event: EngineEvent, at time: Duration, playhead: MediaTime) -> MetricEvent? {
        let kind: MetricEvent.Kind
        switch event {
        case .firstFrame(let startup): kind = .firstFrame(startup: startup)
        case .stallBegan: kind = .stall
        case .stallEnded(let duration): kind = .resumeAfterStall(stallDuration: duration)
        case .seekBegan(let target): kind = .seekBegan(target: target)
        case .seekEnded(let position, let completed): kind = .seekEnded(position: position, completed: completed)
        case .rateChanged(let rate): kind = .rateChanged(rate)
        case .variantSwitched(let from?, let to, let reason): kind = .variantSwitched(from: from, to: to, reason: reason)
        case .error(let error) where error.isFatal:
            guard !hasFailed else { return nil }
            hasFailed = true
            kind = .failure(error)
        case .error(let error): kind = .warning(error)
        case .interstitialBegan(let event): kind = .interstitialBegan(event)
        case .interstitialEnded(let event, let outcome): kind = .interstitialEnded(event, outcome: outcome)
        case .interstitialAssetEnded(let event, let index, .failed(let reason)):
            kind = .interstitialAssetFailed(event, index: index, reason: reason)
        case .variantSwitched(nil, _, _), .statusChanged, .loaded, .playlistRefreshed, .request, .ended,
             .rangeSkipped, .mediaOptionSelected, .adBreaksChanged, .progressed, .interstitialAssetBegan,
             .interstitialAssetEnded:
            return nil
        }
        return append(MetricEvent(kind: kind, time: time, playhead: playhead))
    }

    /// Records an event the player itself observes (metadata and asset timing, item transitions).
    @discardableResult
    public mutating func record(_ kind: MetricEvent.Kind, at time: Duration, playhead: MediaTime) -> MetricEvent {
        append(MetricEvent(kind: kind, time: time, playhead: playhead))
    }

    private mutating func append(_ event: MetricEvent) -> MetricEvent {
        events.append(event)
        return event
    }
}
