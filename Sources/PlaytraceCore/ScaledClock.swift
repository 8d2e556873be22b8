/// A clock that runs faster (or slower) than real time: `speed` seconds of its time pass per real second.
///
/// The demo uses it to play a minute of media in a few seconds while every component still sees a consistent
/// clock: the engine's playhead, the lab's live window and its throttling all run on the same scaled time.
///
/// ```swift
/// let clock = ScaledClock(speed: 10)
/// try await clock.sleep(for: .seconds(10))   // returns after about one real second
/// ```
public struct ScaledClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's reference, in scaled time.
        public var offset: Duration
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// Scaled seconds per real second.
    public let speed: Double
    private let base = ContinuousClock()
    private let origin: ContinuousClock.Instant

    /// Creates a clock running `speed` times faster than real time (must be positive).
    public init(speed: Double) {
        precondition(speed > 0 && speed.isFinite, "a clock's speed must be a positive number")
        self.speed = speed
        self.origin = base.now
    }

    public var now: Instant { Instant(offset: origin.duration(to: base.now) * speed) }

    public var minimumResolution: Duration { base.minimumResolution * speed }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let remaining = now.duration(to: deadline)
        guard remaining > .zero else { return }
        try await base.sleep(for: remaining / speed, tolerance: tolerance.map { $0 / speed })
    }
}
