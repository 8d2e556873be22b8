public import PlaytracePlayer

/// How much of its timeline and requests a session keeps for its summary. Counts always cover everything; these
/// bound the lists, so that a session's record stays small whatever its length.
public struct SessionRecordLimits: Sendable, Hashable {
    /// Timeline samples: past it every other one is dropped and the step doubles.
    public var samples: Int
    /// Timeline events (warnings and failures may take as many again).
    public var events: Int
    /// Failed requests listed (the first ones).
    public var failedRequests: Int
    /// Successful requests listed: the first ones, or the latest (``keepsLatestRequests``).
    public var succeededRequests: Int
    /// Whether the successful requests listed are the latest ones (a ring) rather than the first ones.
    public var keepsLatestRequests: Bool
    /// The Player's quality-of-service samples kept for its current item (`Player.metrics()`, one a second):
    /// the summary does not read them (its timeline is the recorder's), an app showing the session might.
    public var playerMetricsHistory: Int

    public init(samples: Int = SessionSummary.Timeline.sampleLimit, events: Int = SessionSummary.Timeline.eventLimit,
                failedRequests: Int = SessionSummary.Requests.failureLimit,
                succeededRequests: Int = SessionSummary.Requests.successLimit, keepsLatestRequests: Bool = false,
                playerMetricsHistory: Int = Player.Configuration().metricsHistoryLimit) {
        self.samples = max(2, samples)
        self.events = max(0, events)
        self.failedRequests = max(0, failedRequests)
        self.succeededRequests = max(0, succeededRequests)
        self.keepsLatestRequests = keepsLatestRequests
        self.playerMetricsHistory = max(1, playerMetricsHistory)
    }

    /// A session's own (`play`, `demo`): 2,000 samples, 1,000 events, 250 failed and the first 250 successful requests;
    /// the Player's hour of quality-of-service samples.
    public static let session = SessionRecordLimits()

    /// A probe viewer's, some 15 KB whatever its length: 60 samples (9 KB), 50 events, the first 20 failed and the
    /// latest 20 successful requests — enough to tell what happened to one of the worst viewers; the Player's latest
    /// quality-of-service sample only (an hour of them is half a megabyte a viewer).
    public static let probeViewer = SessionRecordLimits(samples: 60, events: 50, failedRequests: 20, succeededRequests: 20,
                                                         keepsLatestRequests: true, playerMetricsHistory: 1)
}
