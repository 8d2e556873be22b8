import PlaytraceCore

/// What a probe's viewers did, folded as each ends: counts, sums and distributions (HdrHistograms), bounded whatever
/// the number of viewers, with the whole summaries of the worst few viewers only.
public struct ProbeAggregate: Sendable {
    /// The viewers this process was to run, started, and ended (with a result, or failing to start).
    public var planned = 0
    public var started = 0
    public var ended = 0
    /// Viewers whose playback failed, set-up included (``failedToStart``).
    public var failed = 0
    /// Viewers whose set-up failed (their SSAI session), before they played.
    public var failedToStart = 0
    /// Viewers that ended without ever showing a frame.
    public var neverStarted = 0
    /// Startup times: from the media request to the first frame, counted as each first frame shows.
    public var startup = LatencyDistribution()
    /// Media time played, all viewers together.
    public var playedSeconds = 0.0
    public var stallCount = 0
    public var stallSeconds = 0.0
    public var variantSwitches = 0
    /// Seconds played at each variant, by its peak bandwidth (bits per second), all viewers together.
    public var variantSeconds: [Int: Double] = [:]
    public var beacons = BeaconTotals()
    /// Beacon delivery lateness: from the playhead's crossing to the response (as each viewer ends, and as a viewer
    /// retires a break the live window left behind).
    public var lateness = LatencyDistribution()
    /// How many viewers fell short in each way (a viewer's verdict's kinds: `missed`, `stalled`…).
    public var shortfalls: [String: Int] = [:]
    /// The worst viewers, worst first (at most the probe's `worstKept`).
    public private(set) var worst: [WorstViewer] = []

    /// The beacons of every viewer, as each one's verdict counts them.
    public typealias BeaconTotals = ProbeBeaconTotals

    /// One of the worst viewers: what made it so, and its whole session summary.
    public struct WorstViewer: Sendable {
        public var viewer: ProbePopulation.Viewer
        /// Higher is worse: a failure outweighs any beacon missed, which outweighs any stall, then the startup time.
        public var score: Double
        /// What went wrong, in one line.
        public var reason: String
        /// Whether it fell short at all (a viewer with no shortfall is among the worst only when all did well).
        public var fellShort: Bool
        public var summary: SessionSummary?
    }

    public init() {}

    /// Viewers playing now.
    public var active: Int { started - ended }

    /// Stalled time over stalled and played time, once something played.
    public var rebufferingRatio: Double? {
        stallSeconds + playedSeconds > 0 ? stallSeconds / (stallSeconds + playedSeconds) : nil
    }

    /// Stalls per hour of media played.
    public var stallsPerViewerHour: Double? { playedSeconds > 0 ? Double(stallCount) / (playedSeconds / 3_600) : nil }

    mutating func addFailedSetUp(_ viewer: ProbePopulation.Viewer, reason: String, keepingWorst limit: Int) {
        ended += 1
        failed += 1
        failedToStart += 1
        neverStarted += 1
        shortfalls[SessionVerdict.Shortfall.playbackFailed.rawValue, default: 0] += 1
        keep(WorstViewer(viewer: viewer, score: Self.failureScore, reason: "failed before playing: " + reason,
                         fellShort: true, summary: nil),
             limit: limit)
    }

    static let failureScore = 1e12

    /// Counts a viewer's startup as its first frame shows (before the viewer ends: the live figures have it).
    mutating func addStartup(_ value: Duration) {
        startup.record(value)
    }

    /// Folds one viewer's result in (its startup was counted as it happened, by ``addStartup(_:)``); returns the
    /// beacon delivery latenesses it added to ``lateness``, for metrics that keep their own histograms.
    @discardableResult
    mutating func add(_ result: SessionResult, of viewer: ProbePopulation.Viewer, keepingWorst limit: Int) -> [Duration] {
        var added: [Duration] = []
        ended += 1
        let summary = result.summary
        let failedPlayback = result.verdict.playback == .failed
        if failedPlayback { failed += 1 }
        var startupSeconds: Double?
        for item in summary.items {
            if let seconds = item.startupSeconds { startupSeconds = startupSeconds ?? seconds }
            stallCount += item.stallCount
            stallSeconds += item.stallSeconds
            variantSwitches += item.variantSwitchCount
            playedSeconds += item.playedSeconds ?? 0
        }
        if startupSeconds == nil { neverStarted += 1 }
        addVariantSeconds(summary.timeline.samples)
        var beaconTrouble = 0
        if let ads = summary.ads {
            let counts = ads.counts
            beacons.expected += counts.expected
            beacons.fired += counts.fired
            beacons.delivered += counts.delivered
            beacons.failed += counts.failed
            beacons.waiting += counts.waiting
            beacons.late += counts.late
            beacons.missed += counts.missed
            beacons.duplicated += counts.duplicated
            beacons.unexpected += counts.unexpected
            beaconTrouble = counts.missed + counts.duplicated + counts.unexpected + counts.failed + counts.waiting
            for beacon in ads.beacons {
                if let milliseconds = beacon.deliveryLatenessMilliseconds {
                    added.append(.saturating(milliseconds: milliseconds))
                    lateness.record(.saturating(milliseconds: milliseconds))
                }
            }
        }
        let kinds = Set(result.verdict.findings.map(\.kind.rawValue))
        for kind in kinds { shortfalls[kind, default: 0] += 1 }
        let stalled = summary.items.reduce(0.0) { $0 + $1.stallSeconds }
        let score = (failedPlayback ? Self.failureScore : 0) + Double(beaconTrouble) * 1e8 + stalled * 1e3
            + (startupSeconds ?? 100)
        let reason = result.verdict.findings.isEmpty ? "no shortfall; startup "
            + (startupSeconds.map { Format.seconds($0) } ?? "never") : result.verdict.findings.map(\.text).joined(separator: "; ")
        keep(WorstViewer(viewer: viewer, score: score, reason: reason,
                         fellShort: failedPlayback || !result.verdict.findings.isEmpty, summary: summary), limit: limit)
        return added
    }

    /// Seconds played at each variant, from the viewer's samples: the time from one sample to the next counts for the
    /// variant of the first when it was playing.
    private mutating func addVariantSeconds(_ samples: [SessionSummary.Sample]) {
        for (sample, next) in zip(samples, samples.dropFirst()) where sample.state == "playing" && !sample.buffering {
            guard let bandwidth = sample.bitrateBitsPerSecond, next.atSeconds > sample.atSeconds else { continue }
            variantSeconds[bandwidth, default: 0] += next.atSeconds - sample.atSeconds
        }
    }

    /// Keeps `candidate` if it is among the `limit` worst so far.
    private mutating func keep(_ candidate: WorstViewer, limit: Int) {
        guard limit > 0 else { return }
        if worst.count == limit, let last = worst.last, last.score >= candidate.score { return }
        let position = worst.firstIndex { $0.score < candidate.score } ?? worst.endIndex
        worst.insert(candidate, at: position)
        if worst.count > limit { worst.removeLast() }
    }
}
