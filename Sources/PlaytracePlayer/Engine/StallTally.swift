/// An engine's count of a playback's stalls: how many, how long in all (the one under way included), and whether
/// one is under way. Each engine keeps one, so that ``EngineSnapshot/stallCount`` and
/// ``EngineSnapshot/stallDuration`` mean the same thing on every engine.
///
/// ```swift
/// var stalls = StallTally()
/// stalls.begin(at: .seconds(10))
/// print(stalls.total(at: .seconds(12)))    // 2.0 seconds: the stall under way counts
/// print(stalls.end(at: .seconds(13))!)     // 3.0 seconds: this stall's length
/// ```
public struct StallTally: Sendable, Equatable {
    /// How many stalls began.
    public private(set) var count = 0
    /// When the stall under way began, on the engine's stopwatch.
    public private(set) var startedAt: Duration?
    /// The length of the stalls that ended.
    private var ended: Duration = .zero

    /// No stall yet.
    public init() {}

    /// Whether a stall is under way.
    public var isStalled: Bool { startedAt != nil }

    /// A stall begins at `instant`; `false` (and nothing counted) when one is already under way.
    @discardableResult
    public mutating func begin(at instant: Duration) -> Bool {
        guard startedAt == nil else { return false }
        startedAt = instant
        count += 1
        return true
    }

    /// The stall under way ends at `instant` (playback resumed, or failed: its time counts either way); returns its
    /// length, or `nil` when none was under way.
    @discardableResult
    public mutating func end(at instant: Duration) -> Duration? {
        guard let started = startedAt else { return nil }
        let length = instant - started
        ended += length
        startedAt = nil
        return length
    }

    /// The time stalled in all at `instant`, the stall under way included.
    public func total(at instant: Duration) -> Duration {
        ended + (startedAt.map { instant - $0 } ?? .zero)
    }
}
