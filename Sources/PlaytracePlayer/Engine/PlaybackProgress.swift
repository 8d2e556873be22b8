public import PlaytraceCore

/// A continuous movement of the playhead, as an engine reports it (``EngineEvent/progressed(_:)``): from one
/// position to the next at one rate, with the stream dates of both ends when the stream has them.
///
/// Progress reports are what trackers that must see every instant of playback — an ad tracker firing beacons when
/// the playhead crosses their times — observe instead of sampling the position on a timer: between two reports
/// nothing is unseen, and a seek, a skipped range or a stall is the absence of a report, not a jump inside one.
public struct PlaybackProgress: Sendable, Hashable {
    /// Where the movement began.
    public var from: MediaTime
    /// Where it ended (after `from`).
    public var to: MediaTime
    /// The stream dates at `from` and `to`, when the stream carries program-date-time.
    public var fromDate: StreamDate?
    public var toDate: StreamDate?
    /// The playback rate of the movement (1 is normal speed).
    public var rate: Double
    /// While an interstitial plays: its playhead's movement (`from` and `to` are then the primary's position, which
    /// does not move).
    public var interstitial: InterstitialProgress?
    /// How long before the report the playhead was at `to`: zero, except for the first parts of a movement that
    /// crossed a progress boundary when a tick came late (the engine reports it in parts that end at the boundaries).
    public var lag: Duration

    public init(from: MediaTime, to: MediaTime, fromDate: StreamDate? = nil, toDate: StreamDate? = nil, rate: Double,
                interstitial: InterstitialProgress? = nil, lag: Duration = .zero) {
        self.from = from
        self.to = to
        self.fromDate = fromDate
        self.toDate = toDate
        self.rate = rate
        self.interstitial = interstitial
        self.lag = lag
    }
}
