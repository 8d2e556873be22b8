import PlaytraceCore

/// What a probe's viewers did, folded as each ends: counts, and distributions kept as HdrHistograms (bounded
/// whatever the number of viewers), with the worst few viewers' whole summaries.
public struct ProbeAggregate: Sendable {
    /// The viewers this process was to run, started, and ended (with a result, or failing to start).
    public var planned = 0
    public var started = 0
    public var ended = 0
    /// Viewers whose playback failed, or that failed before playing (their set-up).
    public var failed = 0
    public var failedToStart = 0
    /// Startup times (from the media request to the first frame), in milliseconds.
    public var startup = LatencyDistribution()
    /// Played and stalled seconds, all viewers together.
    public var stalls = 0
    public var stallSeconds = 0.0
    public var bytes = 0
    public var requests = 0
    public var failedRequests = 0
    /// The worst viewers, worst first: their place, how bad, and their summary.
    public var worst: [(viewer: ProbePopulation.Viewer, score: Double, summary: SessionSummary)] = []

    public init() {}

    mutating func failedToStart(_ viewer: ProbePopulation.Viewer, error: any Error) {
        ended += 1
        failed += 1
        failedToStart += 1
    }

    mutating func add(_ result: SessionResult, of viewer: ProbePopulation.Viewer, keepingWorst limit: Int) {
        ended += 1
        if !result.succeeded { failed += 1 }
        for item in result.summary.items {
            if let startup = item.startupSeconds {
                self.startup.record(.saturating(seconds: startup))
            }
            stalls += item.stallCount
            stallSeconds += item.stallSeconds
        }
        bytes += result.summary.requests.bytesReceived
        requests += result.summary.requests.total
        failedRequests += result.summary.requests.failed
    }
}
