public import PlaytraceCore

/// Counters of an item's playback, as totals since it began or as the increment over an interval.
public struct MetricsValues: Sendable, Hashable {
    /// Rebufferings.
    public var stallCount: Int
    /// Time spent rebuffering.
    public var stallDuration: Duration
    /// Body bytes received.
    public var bytesReceived: Int
    /// Requests made, retries included.
    public var requestCount: Int
    /// Variant switches under the playhead.
    public var variantSwitchCount: Int
    /// Media time played (seeks and skips leave holes).
    public var playbackDuration: MediaTime

    /// Creates values.
    /// - Parameters:
    ///   - stallCount: rebufferings.
    ///   - stallDuration: time spent rebuffering.
    ///   - bytesReceived: body bytes received.
    ///   - requestCount: requests made.
    ///   - variantSwitchCount: variant switches.
    ///   - playbackDuration: media time played.
    public init(stallCount: Int = 0, stallDuration: Duration = .zero, bytesReceived: Int = 0, requestCount: Int = 0,
                variantSwitchCount: Int = 0, playbackDuration: MediaTime = .zero) {
        self.stallCount = stallCount
        self.stallDuration = stallDuration
        self.bytesReceived = bytesReceived
        self.requestCount = requestCount
        self.variantSwitchCount = variantSwitchCount
        self.playbackDuration = playbackDuration
    }

    /// The totals of an engine snapshot.
    /// - Parameter snapshot: the engine's state.
    public init(_ snapshot: EngineSnapshot) {
        self.init(stallCount: snapshot.stallCount, stallDuration: snapshot.stallDuration,
                  bytesReceived: snapshot.bytesReceived, requestCount: snapshot.requestCount,
                  variantSwitchCount: snapshot.variantSwitchCount, playbackDuration: snapshot.playedRanges.duration)
    }

    /// What grew from `earlier` to these values.
    /// - Parameter earlier: totals taken before.
    public func increment(since earlier: MetricsValues) -> MetricsValues {
        MetricsValues(stallCount: stallCount - earlier.stallCount, stallDuration: stallDuration - earlier.stallDuration,
                      bytesReceived: bytesReceived - earlier.bytesReceived,
                      requestCount: requestCount - earlier.requestCount,
                      variantSwitchCount: variantSwitchCount - earlier.variantSwitchCount,
                      playbackDuration: playbackDuration - earlier.playbackDuration)
    }
}

/// One sample of an item's quality of service (Pillarbox's `Metrics`): when it was taken, what plays, and the
/// counters both as totals and as what grew since the previous sample.
public struct Metrics: Sendable, Hashable {
    /// When the sample was taken, from the start of the item's playback session.
    public var time: Duration
    /// The playhead then.
    public var playhead: MediaTime
    /// The variant under the playhead.
    public var variant: VariantInfo?
    /// The engine's throughput estimate, bits per second.
    public var estimatedThroughput: Double?
    /// From the load (or the first play request) to the first frame, once known.
    public var startupTime: Duration?
    /// Totals since the session began.
    public var total: MetricsValues
    /// What grew since the previous sample (the totals, for the first one).
    public var increment: MetricsValues

    /// A sample of a snapshot.
    /// - Parameters:
    ///   - snapshot: the engine's state.
    ///   - time: when, from the start of the session.
    ///   - previous: the sample before, if any.
    public init(_ snapshot: EngineSnapshot, at time: Duration, after previous: Metrics?) {
        self.time = time
        playhead = snapshot.playhead
        variant = snapshot.currentVariant
        estimatedThroughput = snapshot.estimatedThroughput
        startupTime = snapshot.startupTime
        let total = MetricsValues(snapshot)
        self.total = total
        increment = previous.map { total.increment(since: $0.total) } ?? total
    }
}
