import PlaytraceCore

/// Decides which tracking events fire, from the playhead's observed movements: crossings, never windows.
///
/// An automatic event fires when the playhead crosses its time while playing at a beaconing rate (above 0 and up to
/// ``maximumBeaconingRate``, 2.5×), between two observations (`from < time ≤ to`), and is recorded at the interpolated instant of the crossing, so an event
/// crossed during a late tick or across a stall still fires, on time. Entering an ad (or a break) anywhere but its
/// start fires its impression and start (and breakStart). Quartiles, complete and breakEnd fire only when
/// crossed while playing: what a seek jumps over never fires. A jump back into an ad that was played fires the
/// ad's `rewind` events; automatic events never fire twice. Breaks that arrive after the playhead passed them
/// are caught up (``catchUp(_:)``) for what was actually played, from the scheduler's own record of played
/// intervals.
///
/// The rate rule: what is played faster than ``playbackRates`` allows (above 2.5× by default) is taken for
/// fast-forwarding, as a seek is: its crossings fire nothing. An ad entered that way and then played at a beaconing
/// rate fires its impression and start there, as an ad entered by a seek does. ``BeaconAudit`` expects exactly this
/// (``AdBeaconingSession/expectedEvents(played:)``), so that the audit and the scheduler cannot disagree.
///
/// Breaks of HLS interstitials live on the timeline of their interstitial, not the primary's: ``podScopes`` names
/// the interstitial of each such break, and only observations made in that interstitial's ``scope`` reach it, while
/// the primary's observations (scope `nil`) reach only the other breaks. The primary's content under an
/// interstitial's date is thus never taken for the interstitial's ads.
///
/// The scheduler changes the events it fires to ``ReportingState/connecting``; delivery sets the final state.
///
/// ```swift
/// var scheduler = BeaconScheduler()
/// let firings = scheduler.observe(.played(from: 9_900, to: 10_000, rate: 1, at: .seconds(10)), pods: &pods)
/// ```
public struct BeaconScheduler: Sendable {
    /// The fastest rate at which automatic events fire by default: Harmonic's `MAX_TOLERANCE_IN_SPEED` (2.5, raised
    /// from 2 for viewers who watch at 2×).
    public static let maximumBeaconingRate = 2.5

    /// How far apart, on the session's stopwatch, two played intervals may meet for the second to continue the first.
    /// An interval's instant is when its report was handled, less the lag the engine said: a busy main actor (a
    /// probe's thousand viewers) handles reports some milliseconds apart from the engine's ticks, and an interval per
    /// report would fill the history (measured: 4 reports a second each a span of their own at 300 probe viewers). A
    /// pause shorter than this is not worth an interval.
    static let continuity = Duration.milliseconds(250)

    /// The rates at which automatic events fire: above 0 and up to ``maximumBeaconingRate`` by default. A rate of 0
    /// never fires, whatever the range says.
    public var playbackRates: ClosedRange<Double> = 0...BeaconScheduler.maximumBeaconingRate
    /// How long played intervals are remembered for catching up late metadata, on the ad timeline (2 h).
    public var historySpan: AdTime = 2 * 3_600_000
    /// The most played intervals remembered (the oldest are forgotten first).
    public var historyLimit = 4_096
    /// The interstitial each break belongs to, by break ID (breaks not listed are the primary's).
    public var podScopes: [String: String] = [:]
    /// Where the observations now come from: an interstitial's ID, or `nil` for the primary content.
    public var scope: String?

    private struct PlayedInterval {
        var from: AdTime
        var to: AdTime
        var rate: Double
        /// When the playhead was at `to`.
        var end: Duration
        /// The interstitial it was played in, or `nil` for the primary.
        var scope: String?

        func instant(at time: AdTime) -> Duration { end - .saturating(milliseconds: (to - time).milliseconds / rate) }
    }

    private var history: [PlayedInterval] = []
    /// Reports made of each player-initiated event, so that each has its own delivery key.
    public private(set) var occurrences: [TrackingEventKey: Int] = [:]

    public init() {}

    /// Whether crossings made at `rate` fire.
    public func firesAt(rate: Double) -> Bool {
        rate >= 0.01 && rate >= playbackRates.lowerBound - 1e-3 && rate <= playbackRates.upperBound + 1e-3
    }

    /// Takes one observation; returns the events it fires, in the order of their crossings.
    public mutating func observe(_ observation: PlaybackObservation, pods: inout [AdPod]) -> [BeaconFiring] {
        switch observation {
        case .played(let from, let to, let rate, let instant):
            guard to > from, firesAt(rate: rate) else { return [] }
            let interval = PlayedInterval(from: from, to: to, rate: rate, end: instant, scope: scope)
            record(interval)
            var firings: [BeaconFiring] = []
            for podIndex in overlapping(pods, from: from, to: to, scope: scope) {
                fire(in: &pods[podIndex], during: interval, cause: .crossed, into: &firings)
            }
            return firings.sorted { $0.crossing < $1.crossing }
        case .jumped(let from, let to, let instant):
            guard let from, to < from else { return [] }
            return rewind(to: to, at: instant, pods: &pods)
        }
    }

    /// Replaces the record of played intervals with these observations' (only what was played at a rate that
    /// fires), each with the scope it was made in: the timeline the metadata counts on changed, and what was played
    /// is told again on the new one.
    public mutating func replaceHistory(with observations: [(observation: PlaybackObservation, scope: String?)]) {
        history.removeAll()
        for (observation, scope) in observations {
            guard case .played(let from, let to, let rate, let instant) = observation, to > from, firesAt(rate: rate) else {
                continue
            }
            record(PlayedInterval(from: from, to: to, rate: rate, end: instant, scope: scope))
        }
    }

    /// Fires, once, the events of breaks that arrived after the playhead passed them, for the parts played.
    public mutating func catchUp(_ pods: inout [AdPod]) -> [BeaconFiring] {
        guard !history.isEmpty else { return [] }
        var firings: [BeaconFiring] = []
        for interval in history {
            for podIndex in overlapping(pods, from: interval.from, to: interval.to, scope: interval.scope) {
                fire(in: &pods[podIndex], during: interval, cause: .caughtUp, into: &firings)
            }
        }
        return firings.sorted { $0.crossing < $1.crossing }
    }

    /// Fires every event of a player-initiated type (`pause`, `mute`…) of the ad under the playhead; none when no ad
    /// plays there or the ad has no such event.
    public mutating func report(_ type: TrackingEventType, at playhead: AdTime, instant: Duration,
                                pods: inout [AdPod]) -> [BeaconFiring] {
        guard let (podIndex, adIndex) = ad(at: playhead, in: pods) else { return [] }
        return firePlayerInitiated(type, podIndex: podIndex, adIndex: adIndex, playhead: playhead, instant: instant, pods: &pods)
    }

    /// Forgets what it keeps of the breaks `podIDs` (their scopes, their player-initiated reports): the breaks left
    /// the session (``AdBeaconingSession/retireBreaks(endingBefore:)``).
    public mutating func forget(pods podIDs: Set<String>) {
        for id in podIDs { podScopes[id] = nil }
        occurrences = occurrences.filter { !podIDs.contains($0.key.podID) }
    }

    // MARK: - Crossings

    /// Fires the events of a break that `interval` crossed. The break's and its ads' times are read first: a copy of
    /// the break or an ad held while one of its events changes would make every report copy their arrays.
    private mutating func fire(in pod: inout AdPod, during interval: PlayedInterval, cause: BeaconFiring.Cause,
                               into firings: inout [BeaconFiring]) {
        let podSpan = (start: pod.startTime, end: pod.endTime)
        for index in pod.trackingEvents.indices {
            consider(&pod.trackingEvents[index], container: podSpan, adStart: nil, podStart: podSpan.start,
                     during: interval, cause: cause, into: &firings)
        }
        for adIndex in pod.ads.indices where pod.ads[adIndex].startTime <= interval.to && pod.ads[adIndex].endTime >= interval.from {
            let adSpan = (start: pod.ads[adIndex].startTime, end: pod.ads[adIndex].endTime)
            for index in pod.ads[adIndex].trackingEvents.indices {
                consider(&pod.ads[adIndex].trackingEvents[index], container: adSpan, adStart: adSpan.start,
                         podStart: podSpan.start, during: interval, cause: cause, into: &firings)
            }
        }
    }

    private func consider(_ event: inout TrackingEvent, container: (start: AdTime, end: AdTime), adStart: AdTime?,
                          podStart: AdTime, during interval: PlayedInterval, cause: BeaconFiring.Cause,
                          into firings: inout [BeaconFiring]) {
        let (containerStart, containerEnd) = container
        guard event.reportingState == .idle, event.event.kind == .automatic else { return }
        let time = event.startTime
        let crossing: Duration
        var actualCause = cause
        if interval.from < time, time <= interval.to {
            crossing = interval.instant(at: time)
        } else if event.event.firesOnEntry, time <= interval.from, containerStart < interval.to,
                  interval.from < containerEnd {
            crossing = interval.instant(at: interval.from)
            if cause == .crossed { actualCause = .entered }
        } else {
            return
        }
        event.reportingState = .connecting
        let moment = max(time, interval.from)
        firings.append(BeaconFiring(key: event.id, occurrence: 0, event: event.event, mediaTime: time, crossing: crossing,
                                    cause: actualCause, urls: event.signalingUrls,
                                    adPlayhead: adStart.map { max(.zero, moment - $0) }, adStart: adStart,
                                    podStart: podStart, urlsOverLimit: event.urlsOverLimit))
    }

    // MARK: - Player-initiated events

    private mutating func rewind(to playhead: AdTime, at instant: Duration, pods: inout [AdPod]) -> [BeaconFiring] {
        guard let (podIndex, adIndex) = ad(at: playhead, in: pods) else { return [] }
        let played = pods[podIndex].ads[adIndex].trackingEvents.contains {
            $0.event.kind == .automatic && $0.reportingState.hasFired
        }
        guard played else { return [] }
        return firePlayerInitiated(.rewind, podIndex: podIndex, adIndex: adIndex, playhead: playhead, instant: instant,
                                   pods: &pods)
    }

    private mutating func firePlayerInitiated(_ type: TrackingEventType, podIndex: Int, adIndex: Int, playhead: AdTime,
                                              instant: Duration, pods: inout [AdPod]) -> [BeaconFiring] {
        var firings: [BeaconFiring] = []
        let ad = pods[podIndex].ads[adIndex]
        for index in ad.trackingEvents.indices where ad.trackingEvents[index].event == type {
            let event = ad.trackingEvents[index]
            let occurrence = (occurrences[event.id] ?? 0) + 1
            occurrences[event.id] = occurrence
            pods[podIndex].ads[adIndex].trackingEvents[index].reportingState = .connecting
            firings.append(BeaconFiring(key: event.id, occurrence: occurrence, event: type, mediaTime: playhead,
                                        crossing: instant, cause: .playerAction, urls: event.signalingUrls,
                                        adPlayhead: max(.zero, playhead - ad.startTime), adStart: ad.startTime,
                                        podStart: pods[podIndex].startTime, urlsOverLimit: event.urlsOverLimit))
        }
        return firings
    }

    // MARK: - Lookup and history

    /// The indices of the breaks (sorted by start) of a scope that overlap `from…to`.
    private func overlapping(_ pods: [AdPod], from: AdTime, to: AdTime, scope: String?) -> [Int] {
        // Breaks are sorted by start: those starting after `to` are skipped by a binary search.
        var low = 0
        var high = pods.count
        while low < high {
            let middle = (low + high) / 2
            if pods[middle].startTime <= to { low = middle + 1 } else { high = middle }
        }
        return (0..<low).filter { pods[$0].endTime >= from && podScopes[pods[$0].id] == scope }
    }

    private func ad(at playhead: AdTime, in pods: [AdPod]) -> (Int, Int)? {
        for podIndex in overlapping(pods, from: playhead, to: playhead, scope: scope) {
            if let adIndex = pods[podIndex].ads.firstIndex(where: { $0.startTime <= playhead && playhead < $0.endTime }) {
                return (podIndex, adIndex)
            }
        }
        return nil
    }

    private mutating func record(_ interval: PlayedInterval) {
        // A continuation of the last interval (no stall or pause between: the instants follow, within what a busy main
        // actor shifts them by) extends it.
        if var last = history.last, last.to == interval.from, last.rate == interval.rate, last.scope == interval.scope,
           interval.instant(at: last.to) - last.end < Self.continuity,
           last.end - interval.instant(at: last.to) < Self.continuity {
            last.to = interval.to
            last.end = interval.end
            history[history.count - 1] = last
        } else {
            history.append(interval)
        }
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit / 2) }
        let horizon = interval.to - historySpan
        if let first = history.first, first.to < horizon { history.removeAll { $0.to < horizon } }
    }
}
